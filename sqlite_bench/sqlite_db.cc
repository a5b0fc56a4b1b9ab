#include "sqlite_bench/sqlite_db.h"

#include <fmt/format.h>

#include "sqlite_bench/counting_vfs.h"
#include "sqlite_bench/descriptor_paths.h"

namespace durprobe::sqlite_bench {

Status SqliteError(sqlite3* db, int rc, const std::string& context) {
  const char* msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  int code = db ? sqlite3_extended_errcode(db) : rc;
  // For SQLITE_IOERR_* (FSYNC, WRITE, ...) and SQLITE_CANTOPEN the user needs the errno of the
  // failed system call to tell EIO from ENOSPC or EACCES: the counting VFS's record first (it
  // sees commit-time failures too), else SQLite's own (only meaningful for these codes).
  int primary = code & 0xff;
  bool io = primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN;
  int err = 0;
  if (db && io) {
    err = TakeFailedErrno(db);
    if (err == 0) err = sqlite3_system_errno(db);
  }
  if (err != 0) {
    return Status::FromErrno(err, fmt::format("{}: {} ({}), system error", context, msg, code));
  }
  return Status::Error(fmt::format("{}: {} ({})", context, msg, code));
}

Statement& Statement::operator=(Statement&& o) noexcept {
  if (this != &o) {
    sqlite3_finalize(stmt_);
    stmt_ = o.stmt_;
    o.stmt_ = nullptr;
  }
  return *this;
}

Result<std::unique_ptr<Db>> Db::Open(const std::string& path, const char* vfs) {
  if (Status kept = KeepDescriptorPaths(); !kept.ok()) return kept;
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs);
  if (rc != SQLITE_OK) {
    Status s = SqliteError(db, rc, "cannot open " + path);
    sqlite3_close_v2(db);
    return s;
  }
  sqlite3_extended_result_codes(db, 1);
  return std::unique_ptr<Db>(new Db(db));
}

// A destructor has no one to tell; a caller that must know calls Close and reads its Status.
Db::~Db() { (void)Close(); }

Status Db::Close() {
  if (db_ == nullptr) return Status::Ok();
  int rc = sqlite3_close(db_);
  if (rc != SQLITE_OK) {
    Status s = SqliteError(db_, rc, "close");
    sqlite3_close_v2(db_);
    db_ = nullptr;
    return s;
  }
  db_ = nullptr;
  return Status::Ok();
}

Result<Statement> Db::Prepare(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr);
  if (rc != SQLITE_OK) return SqliteError(db_, rc, "prepare '" + sql + "'");
  return Statement(stmt);
}

Status Db::Exec(const std::string& sql) {
  int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
  return rc == SQLITE_OK ? Status::Ok() : SqliteError(db_, rc, "'" + sql + "'");
}

Result<std::string> Db::QueryText(const std::string& sql) {
  Result<Statement> stmt = Prepare(sql);
  if (!stmt.ok()) return stmt.status();
  int rc = sqlite3_step(stmt->get());
  if (rc == SQLITE_DONE) return std::string();
  if (rc != SQLITE_ROW) return SqliteError(db_, rc, "'" + sql + "'");
  const unsigned char* text = sqlite3_column_text(stmt->get(), 0);
  return std::string(text ? reinterpret_cast<const char*>(text) : "");
}

}  // namespace durprobe::sqlite_bench
