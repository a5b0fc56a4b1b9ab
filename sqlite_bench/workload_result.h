// The plain data the SQLite workloads beyond commits produce (seeds 000 and 003: read path,
// connection cost, locks, concurrent mixed load, WAL growth). Reporters format it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "probes/probe_result.h"
#include "probes/statistics.h"

namespace durprobe::sqlite_bench {

// What every workload entry carries: whether it ran, and whether its results were verified.
struct WorkloadStatus {
  probes::Outcome outcome = probes::Outcome::kOk;
  std::string reason;  // why not ok (an SQLite error, a verification mismatch, interruption)
};

// Primary-key point lookups, under SQLite's default cache and with cache_size / mmap_size raised.
struct ReadResult : WorkloadStatus {
  std::string variant;   // "defaults", "cache_64mb", "mmap_256mb", "cache_mmap", "memory", "cold"
  std::string database;  // "file" or "memory"
  std::string journal_mode;     // as SQLite answered ("wal", "memory")
  std::int64_t cache_size = 0;  // PRAGMA cache_size as SQLite answered (negative: KiB)
  std::int64_t mmap_size = 0;   // PRAGMA mmap_size as SQLite answered (bytes)
  bool cold = false;            // page cache dropped (POSIX_FADV_DONTNEED) before the queries
  std::string cold_note;        // why a cold run could not drop the cache, or what it means here
  std::uint64_t rows = 0;       // rows in the table, counted and checksummed before the run
  std::uint64_t queries = 0;    // timed lookups, every one checked against the expected value
  double seconds = 0.0;         // sum of the lookups' latencies
  double queries_per_sec = 0.0;
  probes::LatencySummary latency;  // one lookup: bind, step, read the value, reset
};

// Open + one query + close against a reused connection: what a per-request open costs.
struct ConnectResult : WorkloadStatus {
  std::string mode;  // "reopen" or "reuse"
  std::uint64_t rows = 0;
  std::uint64_t ops = 0;
  double seconds = 0.0;
  double us_per_op = 0.0;
  probes::LatencySummary latency;
};

// One lock case, busy_timeout 0 on both connections: what the second party meets at once.
struct LockResult : WorkloadStatus {
  std::string journal_mode;  // "DELETE" or "WAL"
  std::string lock_case;     // "writer_vs_writer" or "reader_vs_commit"
  std::string via;           // "threads" or "processes"
  std::string lock_outcome;  // "ok" or "busy": what the second party got
  std::string busy_at;       // the statement that got SQLITE_BUSY ("BEGIN IMMEDIATE", "COMMIT")
  std::string message;       // SQLite's text ("database is locked")
  std::string final_value;   // the contested row afterwards, read by a fresh connection
  std::string expected_value;
};

// Concurrent mixed load: workers with their own connection, writes with BEGIN
// IMMEDIATE, reads with SELECT COUNT(*).
struct ConcurrencyResult : WorkloadStatus {
  std::string settings;  // "default" or "wal_normal_busy_timeout"
  std::string via;       // "threads" or "processes"
  std::uint32_t workers = 0;
  double write_share = 0.0;
  std::string journal_mode;  // "DELETE" or "WAL"
  std::string synchronous;   // "FULL" or "NORMAL"
  std::int64_t busy_timeout_ms = 0;
  std::uint64_t ops_per_worker = 0;     // planned; the deadline may cut it short
  std::uint64_t ops = 0;                // attempted
  std::uint64_t reads = 0, writes = 0;  // succeeded
  std::uint64_t busy_errors = 0;        // operations that failed with SQLITE_BUSY
  std::uint64_t busy_reads = 0, busy_writes = 0;
  bool deadline_hit = false;  // stopped by the time budget before every planned operation
  double seconds = 0.0;       // wall time from the start signal to the last worker's end
  double ops_per_sec = 0.0;   // succeeded operations / seconds
  probes::LatencySummary write_latency;  // BEGIN IMMEDIATE to COMMIT, busy waits included
  probes::LatencySummary read_latency;
  std::uint64_t verified_rows = 0;  // rows in the table afterwards == successful writes
};

// One PRAGMA wal_checkpoint answer: (busy, log frames, checkpointed frames).
struct CheckpointAnswer {
  int busy = 0;
  int log = 0;
  int checkpointed = 0;
};

struct WalSample {
  double t_ms = 0.0;          // since the reader took its snapshot
  std::uint64_t commits = 0;  // writer commits since then
  std::uint64_t wal_bytes = 0;
  CheckpointAnswer passive;  // the PASSIVE checkpoint run right after the sample
};

// A long reader holding a snapshot while a writer commits: how far the WAL grows.
struct WalGrowthResult : WorkloadStatus {
  std::string synchronous;  // the writer's level
  int wal_autocheckpoint = 0;
  std::uint64_t rows_per_commit = 0;
  std::uint64_t commits = 0;            // while the reader held its snapshot
  std::uint64_t reader_rows = 0;        // what the reader saw, before and after the commits
  bool reader_snapshot_stable = false;  // its count did not move while the writer committed
  std::vector<WalSample> series;
  std::vector<CheckpointAnswer> checkpoints;  // every PASSIVE answer while the reader held on
  std::uint64_t max_wal_bytes = 0;
  CheckpointAnswer passive_after_reader;      // once the reader ended
  std::uint64_t wal_bytes_after_passive = 0;  // the file keeps its size: PASSIVE never shrinks it
  CheckpointAnswer truncate;                  // wal_checkpoint(TRUNCATE)
  std::uint64_t wal_bytes_after_truncate = 0;
  std::uint64_t verified_rows = 0;
};

struct WorkloadResults {
  std::vector<ReadResult> read;
  std::vector<ConnectResult> connect;
  std::vector<LockResult> locks;
  std::vector<ConcurrencyResult> concurrency;
  std::vector<WalGrowthResult> wal_growth;
  // What the run's deadline (WorkloadOptions::deadline_ns) left out, for the schedule to list as
  // unfinished: "locks: WAL writer_vs_writer via processes". Not part of the report.
  std::vector<std::string> cut;
  bool empty() const {
    return read.empty() && connect.empty() && locks.empty() && concurrency.empty() &&
           wal_growth.empty();
  }
};

}  // namespace durprobe::sqlite_bench
