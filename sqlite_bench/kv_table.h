// Seed 000's key-value table (k TEXT PRIMARY KEY, v TEXT of 100 bytes) and the helpers the
// workloads share: deterministic values per key, population in one transaction, verification by
// row count and checksum, busy detection and integer pragmas.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <initializer_list>
#include <string>

#include "platform/platform.h"
#include "sqlite_bench/rows.h"
#include "sqlite_bench/sqlite_db.h"

namespace durprobe::sqlite_bench {

inline constexpr std::size_t kKvValueBytes = 100;
inline constexpr const char* kKvCreateSql = "CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT)";
inline constexpr const char* kKvLookupSql = "SELECT v FROM kv WHERE k = ?1";

std::string KvKey(std::uint64_t i);  // "k<i>"
// 100 lower-case letters derived from i alone, so any reader can check what it got.
void KvValue(std::uint64_t i, std::string* value);

// Creates kv and inserts rows 0..n-1 in one transaction, in key order (rowid = i + 1).
Status PopulateKv(Db& db, std::uint64_t n);
// Counts and checksums every row in rowid order against what PopulateKv wrote; the row count.
Result<std::uint64_t> VerifyKv(Db& db, std::uint64_t n);

// SQLITE_BUSY in any of its extended forms (BUSY_SNAPSHOT, BUSY_RECOVERY, BUSY_TIMEOUT).
inline bool IsBusy(int rc) { return (rc & 0xff) == SQLITE_BUSY; }

// The integer a pragma or query answers in its first column ("PRAGMA cache_size" -> -2000).
Result<std::int64_t> PragmaInt(Db& db, const std::string& pragma);

// Removes path and its -journal, -wal and -shm companions if present.
void RemoveDatabaseFiles(platform::Platform& platform, const std::string& path);

// A fresh database at path (old files removed) in the given journal mode, after running each of
// statements on it; closed again, so the workload opens its own connections.
Status CreateDatabase(platform::Platform& platform, const std::string& path, const char* journal,
                      std::initializer_list<const char*> statements);

}  // namespace durprobe::sqlite_bench
