// Small RAII holders for an SQLite connection and statement, with failures as Status values
// carrying SQLite's message. Workloads use these instead of raw sqlite3_* error handling.
#pragma once

#include <sqlite3.h>

#include <memory>
#include <string>

#include "platform/status.h"

namespace durprobe::sqlite_bench {

// "<context>: <sqlite3_errmsg> (<extended code>)".
Status SqliteError(sqlite3* db, int rc, const std::string& context);

class Statement {
 public:
  Statement() = default;
  explicit Statement(sqlite3_stmt* stmt) : stmt_(stmt) {}
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(Statement&& o) noexcept : stmt_(o.stmt_) { o.stmt_ = nullptr; }
  Statement& operator=(Statement&& o) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  sqlite3_stmt* get() const { return stmt_; }

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

class Db {
 public:
  // Opens (creating) path through the VFS named vfs (nullptr: the default VFS).
  static Result<std::unique_ptr<Db>> Open(const std::string& path, const char* vfs);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  sqlite3* get() const { return db_; }
  Result<Statement> Prepare(const std::string& sql);
  // Runs one or more statements, discarding rows.
  Status Exec(const std::string& sql);
  // The first column of the first row as text ("" when there is no row).
  Result<std::string> QueryText(const std::string& sql);
  // Closes now so its file activity (a WAL checkpoint on close) happens where the caller wants.
  Status Close();

 private:
  explicit Db(sqlite3* db) : db_(db) {}
  sqlite3* db_ = nullptr;
};

}  // namespace durprobe::sqlite_bench
