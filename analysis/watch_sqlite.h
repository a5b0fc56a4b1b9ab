// What one process's syncs say about one SQLite database: the journal mode and synchronous level
// the pattern shows, the transactions it committed and what each cost in syncs, and whether its
// commits are durable at all. The patterns (SQLite's pager and WAL, os_unix.c):
//   rollback journal, FULL:   journal, [directory], journal, database per transaction
//   rollback journal, NORMAL: journal, [directory], database
//   TRUNCATE or PERSIST:      as above, then the journal once more after the database
//   WAL, FULL:                the WAL once per commit; the WAL then the database per checkpoint
//   WAL, NORMAL:              the WAL then the database per checkpoint only
//   OFF:                      writes and no sync at all: a power cut loses committed data
// A WAL sync of exactly its 32-byte header (a WAL restarted) is neither commit nor checkpoint;
// a journal sync of under 512 bytes is FULL's header sync before the commit, or TRUNCATE's or
// PERSIST's after it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/watch.h"

namespace durprobe::analysis {

// One sync of the database's own files (database, journal, WAL, its directory), in order.
struct SqliteFileSync {
  model::WatchFileKind kind = model::WatchFileKind::kOther;
  std::uint64_t bytes = 0;  // written since the file's previous sync
  double at_seconds = 0.0;  // its return, from the window's start
};

// Bytes written to the database's files and not synced when the window ended.
struct SqliteUnsynced {
  std::uint64_t database = 0;
  std::uint64_t journal = 0;
  std::uint64_t wal = 0;
};

inline constexpr std::uint64_t kWalHeaderBytes = 32;
// A rollback journal's first sync in a transaction holds its header (a sector) and the pages it
// saves; FULL's second sync only the header's record count, and TRUNCATE's or PERSIST's sync
// after the commit nothing or the zeroed header: fewer bytes than this.
inline constexpr std::uint64_t kJournalContentBytes = 512;
// Transactions of at most this many bytes of pages (two 4 KiB pages; a WAL frame adds 24 bytes
// of header) are one or two rows each: statements committed one by one.
inline constexpr std::uint64_t kSmallTransactionBytes = 2 * (4096 + 24);
// A pattern of fewer transactions than this says nothing about their size.
inline constexpr std::uint64_t kMinTransactionsForSize = 20;

// transactions_per_second is the rate between the first and the last commit seen (an
// application that commits for a second of a minute's window commits at its own rate, not a
// sixtieth of it); over the whole window when fewer than two commits or no time between them.
model::WatchSqlite InferSqlite(std::uint32_t pid, const std::string& database,
                               const std::vector<SqliteFileSync>& syncs,
                               const SqliteUnsynced& unsynced, double seconds);

// "DELETE", "TRUNCATE or PERSIST", "WAL", "unknown"; "FULL", "NORMAL", "OFF", "unknown".
std::string_view SqliteJournalSeenName(model::SqliteJournalSeen mode);
std::string_view SqliteSyncSeenName(model::SqliteSyncSeen level);

}  // namespace durprobe::analysis
