// The rows the commit workloads insert and how they are verified: a deterministic payload per
// row id and a running checksum over (id, payload) in id order. Reading the table back and
// recomputing it catches lost, duplicated, reordered or altered rows.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>

#include "platform/status.h"

namespace durprobe::sqlite_bench {

inline constexpr const char* kCreateTableSql =
    "CREATE TABLE events(id INTEGER PRIMARY KEY, payload BLOB NOT NULL)";
inline constexpr const char* kInsertSql = "INSERT INTO events(id, payload) VALUES (?1, ?2)";

// size bytes derived from id alone, so the verifier can regenerate what was written.
void FillPayload(std::uint64_t id, std::string* payload, std::size_t size);

// FNV-1a 64 over each row's id (8 bytes, little-endian) and payload, in insertion order.
class RowChecksum {
 public:
  void Add(std::uint64_t id, const void* payload, std::size_t size);
  std::uint64_t value() const { return hash_; }
  std::uint64_t rows() const { return rows_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ull;
  std::uint64_t rows_ = 0;
};

// Reads every row of events in id order and compares count and checksum with what was
// inserted; a mismatch is an error naming both values.
Status VerifyTable(sqlite3* db, const RowChecksum& expected);

}  // namespace durprobe::sqlite_bench
