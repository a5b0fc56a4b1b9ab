// SQLite's commit when the database's sync fails (`durprobe faults`): on the crash device
// (platform/crash_device.h), the write of the failing transaction's new row fails, every time,
// from its first write until the COMMIT has returned; then a new connection, at once and after
// an unmount and a mount, finds the transaction committed, rolled back, the file corrupt, or
// cannot read it. Each step that touches SQLite runs in a forked child: on a filesystem gone
// read-only, a write to the WAL index's shared mapping is a SIGBUS, reported as the child's
// death ("the process died: ... Bus error"), not the run's.
// Never prints.
#pragma once

#include "platform/crash_device.h"
#include "platform/platform.h"
#include "probes/fsync_error_result.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::sqlite_bench {

// Runs on a formatted, unmounted device; leaves it unmounted with its faults cleared.
probes::SqliteSyncFailure RunSqliteSyncFailure(platform::Platform& platform,
                                               platform::CrashDevice& device,
                                               const platform::FsSpec& fs, JournalMode journal);

}  // namespace durprobe::sqlite_bench
