// The plain data `durprobe faults` produces: what a filesystem made on the crash device did when
// one of its block writes failed (probes/fsync_errors.h runs the experiments), and what SQLite's
// commit did on it (sqlite_bench/sync_failure.h). Each call's result is kept as the errno's name
// ("EIO") or "ok", and each outcome is classified; analysis/fsync_error_meaning.h says what it
// means for a database.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "probes/probe_result.h"

namespace durprobe::probes {

// What the experiment broke.
enum class FaultKind {
  kDataOnce,        // the file's next data write fails once
  kDataPersistent,  // every write of the file's data fails, retries too
  kDataDirect,      // the same once, the page written with O_DIRECT
  kDataNoSpace,     // the file's next data write fails once with ENOSPC (thin provisioning)
  kMetadata,        // every write fails while a new file's creation is synced (journal included)
  kDataAppend,      // a page appended past the file's end fails once: its size as well as its data
  kDataCheckpoint,  // the page's write to its home location fails once, the journal's copies
                    // let through (data=journal: the data is in the journal before it is home)
};
// "data_once", "data_persistent", "data_direct", "data_enospc", "metadata", "data_append",
// "data_checkpoint"
std::string_view NameOf(FaultKind kind);

// Whether the syncs after the failure said so.
enum class Reporting {
  kReportedOnce,
  kReportedEveryTime,
  kNotReported,
  kUnknown,
  kReportedByWrite,  // the write itself failed (O_DIRECT): no sync was needed to hear of it
};
// "reported_once", "reported_every_time", "not_reported", "unknown", "reported_by_write"
std::string_view NameOf(Reporting r);

// What a read of the failed page returned.
// kMissing: the file ends before the page (a failed append whose size was not kept).
enum class PageContent { kNew, kOld, kZeros, kOther, kUnreadable, kNotRead, kMissing };
// "new", "old", "zeros", "other", "unreadable", "not_read", "missing"
std::string_view NameOf(PageContent c);

// Whether the filesystem still takes a new file.
enum class FsState { kAvailable, kReadOnly, kShutDown, kUnknown };
// "available", "read_only", "shut_down", "unknown"
std::string_view NameOf(FsState s);

struct FsyncErrorOutcome {
  FaultKind fault = FaultKind::kDataOnce;
  std::string sync;  // "fsync" or "fdatasync": the call the experiment syncs with
  Outcome status = Outcome::kOk;
  std::string reason;  // why not ok
  // Each call as "ok" or the errno's name.
  std::string write;        // the pwrite of the page (O_DIRECT fails here)
  std::string first_sync;   // the sync after the failed write
  std::string second_sync;  // the same call again: a retry
  std::string other_sync;   // the same call on a second descriptor opened before the failure
  std::string later_sync;   // once the device writes again (persistent and metadata faults)
  Reporting reporting = Reporting::kUnknown;
  PageContent cached = PageContent::kNotRead;     // read back at once, through the page cache
  PageContent evicted = PageContent::kNotRead;    // read after its clean pages were dropped
  PageContent remounted = PageContent::kNotRead;  // read after an unmount and a mount
  std::uint64_t size = 0;                         // the file's size after the failure
  std::uint64_t size_after_remount = 0;           // and after an unmount and a mount
  FsState state = FsState::kUnknown;              // after the failure
  std::string state_error;                        // what creating a file returned, when refused
  bool remount_ok = false;                        // the next mount succeeded
  std::string remount_error;
  FsState state_after_remount = FsState::kUnknown;
  std::vector<std::string> kernel;  // the kernel's lines about the device, as it wrote them
  // Set by the analysis (analysis/fsync_error_meaning.h): what retrying the sync would have done.
  std::string retry;
  bool operator==(const FsyncErrorOutcome&) const = default;
};

// SQLite's commit when the database's sync fails: what COMMIT returned, and what a new
// connection found, at once and after an unmount and a mount.
struct SqliteSyncFailure {
  std::string journal_mode;  // "DELETE", "WAL"
  Outcome status = Outcome::kOk;
  std::string reason;
  std::uint64_t rows_before = 0;  // committed and synced before the failure
  std::string commit;             // "ok" or SQLite's error ("disk I/O error (SQLITE_IOERR_FSYNC)")
  std::string reopened;           // "rolled_back", "committed", "corrupt", "unreadable"
  std::uint64_t rows_reopened = 0;
  std::string remounted;
  std::uint64_t rows_remounted = 0;
  std::string detail;  // integrity_check's first line or the open's error, when not clean
  bool operator==(const SqliteSyncFailure&) const = default;
};

// One filesystem's results.
struct FsyncErrorsResult {
  std::string fs;  // "ext4"
  std::string fs_options;
  bool paths_own_fs = false;
  std::string kernel;  // uname release: the behaviour is the kernel's
  std::vector<FsyncErrorOutcome> outcomes;
  std::vector<SqliteSyncFailure> sqlite;
  std::uint64_t ns = 0;  // the experiments' time
  bool operator==(const FsyncErrorsResult&) const = default;
};

}  // namespace durprobe::probes
