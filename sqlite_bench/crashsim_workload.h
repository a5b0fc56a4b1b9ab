// The workload crashsim cuts the power under: a database made durable with its table (the state
// an application starts from), then `commits` transactions of rows_per_commit rows with ids in
// sequence, each counted as acknowledged once COMMIT returned before the crash.
#pragma once

#include <cstdint>

#include "platform/status.h"
#include "sqlite_bench/crash_vfs.h"
#include "sqlite_bench/crashsim_result.h"
#include "sqlite_bench/sqlite_db.h"

namespace durprobe::sqlite_bench {

inline constexpr const char* kCrashDbName = "crash.db";

struct CrashWorkloadOptions {
  std::uint32_t commits = 12;
  std::uint32_t payload_bytes = 200;
  // Small, so a short workload also crosses WAL checkpoints and WAL restarts (SQLite's default
  // is 1000 pages; the commit protocol is the same, only rarer).
  int wal_autocheckpoint = 8;
};

struct CrashRun {
  Status status;                // not ok when the workload could not even start (setup failed)
  std::uint64_t acked = 0;      // commits acknowledged before the crash
  std::uint64_t calls = 0;      // disk-changing calls made after setup (the crash one included)
  bool crashed_inside = false;  // the crash came before the workload's end
};

// The workload's connection settings on db: journal_mode (refused when SQLite keeps another),
// synchronous and the small autocheckpoint, which hold per connection (WAL's mode excepted).
Status ApplyCrashPragmas(Db& db, const CrashsimConfig& config, const CrashWorkloadOptions& options);
// The settings and the table. crashtest runs it on a real filesystem too.
Status SetupCrashDb(Db& db, const CrashsimConfig& config, const CrashWorkloadOptions& options);

struct CrashStatements {
  Statement begin, insert, commit;
};
Result<CrashStatements> PrepareCrashStatements(Db& db);
// One transaction of rows rows with ids from first_id and FillPayload's payloads; false when a
// step failed (the insert's failure rolls back).
bool CommitCrashRows(Db& db, const CrashStatements& statements, std::uint64_t first_id,
                     std::uint32_t rows, std::uint32_t payload_bytes);

// Resets vfs to an empty disk, runs the setup, makes it durable, arms the crash at call at_call
// (CrashVfs::kNever: none) and runs the commits. The power is always out when this returns, so
// vfs.disk() holds the crash state.
CrashRun RunCrashWorkload(CrashVfs& vfs, const CrashsimConfig& config,
                          const CrashWorkloadOptions& options, std::uint64_t at_call);

}  // namespace durprobe::sqlite_bench
