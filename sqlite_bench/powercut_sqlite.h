// `durprobe powercut write --mode sqlite` and its verify (docs/powercut.md): one row per slot
// (slot, seq, checksum, the record's bytes as a blob; record seq in slot seq % slots) committed
// with the chosen journal_mode and synchronous, acknowledged to the witness only once COMMIT
// returned (the writer's loop, probes/powercut_writer.h); after the cut, integrity_check and each
// acknowledged row read back.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "platform/platform.h"
#include "probes/powercut_protocol.h"
#include "probes/powercut_reader.h"
#include "probes/powercut_writer.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::sqlite_bench {

inline constexpr char kPowercutDbName[] = "records.db";

struct PowercutSqliteConfig {
  JournalMode journal = JournalMode::kWal;
  Synchronous sync = Synchronous::kFull;
};
// "sqlite:WAL:FULL": the mode word the witness keeps.
std::string PowercutSqliteMode(const PowercutSqliteConfig& c);

// Creates dir/records.db (dir a descriptor path), applies the configuration, calls ready (the
// caller records the database's identity), then commits one row per record and acks each after
// its COMMIT returned. An error before the first row (the database not creatable, a pragma
// refused, ready's) is a Status.
Result<probes::PowercutWriteResult> WriteSqliteRecords(platform::Platform& platform,
                                                       const std::string& dir, int socket,
                                                       const std::string& run_id,
                                                       const probes::PowercutWriterOptions& options,
                                                       const PowercutSqliteConfig& config,
                                                       const std::function<Status()>& ready);

struct SqliteReadBack {
  probes::PowercutTally tally;
  std::string integrity;  // integrity_check's first line: "ok" when the database is sound
};

// Opens dir/records.db through vfs (nullptr: the default) as the application would after a
// reboot (its journal or WAL recovered), runs integrity_check and reads each slot's newest
// acknowledged row: present (its body is the record with the witness's checksum), in flight (a
// later record of the run the witness never heard of, whole), missing (no row, or an older
// record) or torn. Verify calls it only on a private copy (sqlite_bench/powercut_sqlite_copy.h).
Result<SqliteReadBack> ReadBackSqliteRecords(const std::string& dir, const probes::WitnessRun& run,
                                             const char* vfs = nullptr);

}  // namespace durprobe::sqlite_bench
