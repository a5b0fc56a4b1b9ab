// What `durprobe faults` found means for a database: whether a retry after a failed sync is
// safe on this filesystem, and the findings that say so (fsync_error_not_reported,
// fsync_retry_unsafe).
#pragma once

#include <string>
#include <vector>

#include "model/report.h"
#include "probes/fsync_error_result.h"

namespace durprobe::analysis {

// What retrying the sync would have done, in a few words for the table: "unsafe: retry said ok,
// page old on disk", "safe: every retry failed", "lost silently", "retry wrote it", or "" for an
// experiment that did not run or that breaks metadata (no retry question).
std::string RetryMeaning(const probes::FsyncErrorOutcome& outcome);

// Whether a data experiment's retry returned success without the page reaching the disk.
bool RetryUnsafe(const probes::FsyncErrorOutcome& outcome);

// Whether a failed data write went unreported and the page did not reach the disk: the write
// and the sync after it said ok. A checkpoint's failure after the journal held the page counts
// only when the page is not there after the remount (the journal's copy was not replayed).
bool LostSilently(const probes::FsyncErrorOutcome& outcome);

// The kernel's line that says the most of a failure: the filesystem going read-only or shutting
// down, the journal aborting, else the first error line; "" when it said nothing but mounts.
std::string TellingKernelLine(const std::vector<std::string>& lines);

// Sets each experiment's retry meaning (RetryMeaning) and returns the findings for the target's
// faults results, one per code and filesystem at most.
std::vector<model::Finding> AssessFsyncErrors(model::Target& target);

}  // namespace durprobe::analysis
