// `durprobe watch`'s document (durprobe.watch/1, docs/json.md): what the observed processes
// synced during the window, per file with its kind, per device with the flushes it completed, and
// what the pattern means for each SQLite database. Plain data: run/watch.cc records the syncs,
// analysis/watch_*.cc classify and infer, codec/watch_json.cc and render/ print.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"
#include "platform/sync_observer.h"
#include "probes/histogram.h"

namespace durprobe::model {

inline constexpr char kWatchSchema[] = "durprobe.watch/1";

// What a synced file is, from its path (analysis/watch_files.cc holds the rules and the names).
enum class WatchFileKind {
  kSqliteDatabase,
  kSqliteJournal,    // the rollback journal (-journal)
  kSqliteWal,        // -wal
  kDirectory,        // a directory's entries synced (a create or a delete made durable)
  kPostgresWal,      // pg_wal/ segments
  kPostgresData,     // base/, global/ relation files
  kEtcdWal,          // member/wal/*.wal
  kEtcdSnapshot,     // member/snap/db (bbolt)
  kMysqlRedo,        // ib_logfile*, #innodb_redo/
  kMysqlBinlog,      // *-bin.NNNNNN
  kMysqlData,        // *.ibd, ibdata*
  kRocksdbLog,       // RocksDB or LevelDB: NNNNNN.log (the write-ahead log)
  kRocksdbManifest,  // MANIFEST-NNNNNN
  kRocksdbInfoLog,   // LOG, the informational log
  kOther,
  kLastWatchFileKind = kOther,
};

// One sync as run/watch.cc recorded it: the observer's record, its time from the window's start,
// and what the path was when the report was made.
struct WatchSync {
  platform::ObservedSync sync;
  double at_seconds = 0.0;  // the return, from the window's start
  bool directory = false;   // the path is a directory
};

// A device's counters over the window (platform/block_counters.h).
struct WatchDevice {
  std::string name;
  std::uint64_t flushes = 0;  // flush requests completed in the window
  std::uint64_t writes = 0;   // write requests completed in the window
  bool operator==(const WatchDevice&) const = default;
};

// What run/watch.cc hands the analysis.
struct WatchRecording {
  Context context;
  double seconds = 0.0;  // the window
  std::vector<int> pids;
  std::string comm;
  std::string path;  // --path: files outside it were dropped
  std::vector<WatchSync> syncs;
  std::uint64_t lost = 0;  // records the kernel could not send
  std::vector<std::string> unobserved;
  std::vector<platform::UnsyncedWrites> unsynced;  // files written and not synced at the end
  std::vector<WatchDevice> devices;
  // For each file path synced, the devices (names) its flushes reach.
  std::vector<std::pair<std::string, std::vector<std::string>>> file_devices;
};

struct WatchLatency {
  std::uint64_t p50_ns = 0;
  std::uint64_t p50_low_ns = 0;  // the median's 95% interval from the count
  std::uint64_t p50_high_ns = 0;
  std::optional<std::uint64_t> p99_ns;  // absent under 100 syncs (model/percentiles.h)
  std::uint64_t max_ns = 0;
  bool operator==(const WatchLatency&) const = default;
};

// One file of one process.
struct WatchFile {
  std::uint32_t pid = 0;
  std::string comm;
  std::string path;
  WatchFileKind kind = WatchFileKind::kOther;
  std::uint64_t syncs = 0;
  std::uint64_t failed = 0;                                  // syncs that returned an error
  std::vector<std::pair<std::string, std::uint64_t>> calls;  // {"fdatasync", 12}
  double syncs_per_second = 0.0;
  WatchLatency latency;
  std::vector<probes::HistogramBucket> latency_buckets;  // the syncs' latencies, compact
  std::uint64_t latency_sum_ns = 0;
  std::uint64_t bytes = 0;  // written and then synced
  double bytes_per_sync = 0.0;
  std::uint64_t unsynced_bytes = 0;  // written and not synced when the window ended
  std::vector<std::string> devices;
  bool operator==(const WatchFile&) const = default;
};

struct WatchDeviceRow {
  WatchDevice device;
  std::uint64_t syncs = 0;                 // the observed syncs on files on it
  std::optional<double> flushes_per_sync;  // absent without syncs
  bool operator==(const WatchDeviceRow&) const = default;
};

enum class SqliteJournalSeen { kDelete, kTruncateOrPersist, kWal, kUnknown };
enum class SqliteSyncSeen { kFull, kNormal, kOff, kUnknown };

// What one process's syncs say about one SQLite database (analysis/watch_sqlite.cc).
struct WatchSqlite {
  std::uint32_t pid = 0;
  std::string database;
  SqliteJournalSeen journal_mode = SqliteJournalSeen::kUnknown;
  SqliteSyncSeen synchronous = SqliteSyncSeen::kUnknown;
  bool durable = true;                        // false: writes were seen and nothing synced them
  std::optional<std::uint64_t> transactions;  // absent when commits do not sync (WAL/NORMAL)
  std::optional<double> transactions_per_second;
  std::optional<double> syncs_per_transaction;
  std::optional<double> database_bytes_per_transaction;
  bool small_transactions = false;  // many transactions of a page or two: autocommit per row?
  std::string evidence;             // the pattern, in words
  bool operator==(const WatchSqlite&) const = default;
};

struct WatchReport {
  Context context;
  double seconds = 0.0;
  std::vector<int> pids;
  std::string comm;
  std::string path;
  std::uint64_t syncs = 0;
  std::uint64_t lost = 0;
  std::vector<std::string> unobserved;
  std::vector<WatchFile> files;  // by syncs, most first
  std::vector<WatchDeviceRow> devices;
  std::vector<WatchSqlite> sqlite;
};

}  // namespace durprobe::model
