// `durprobe faults`: what a filesystem does when one of its block writes fails, measured on the
// crash device (platform/crash_device.h), whose server fails the writes the experiment chooses:
// the file's data (found by a marker at the head of each page it writes), or every write while a
// new file's creation is synced. The questions of "Can Applications Recover from fsync
// Failures?" (Rebello et al., ATC'20), asked of this kernel and these mount options. Never prints.
#pragma once

#include <string>
#include <vector>

#include "platform/crash_device.h"
#include "platform/platform.h"
#include "probes/fsync_error_result.h"

namespace durprobe::probes {

// Classifies a page read back against the page written (new) and the one before it (old).
PageContent ClassifyPage(const std::string& read, const std::string& new_page,
                         const std::string& old_page);

// The reporting of a failed write by the write itself, the first sync and its retry: each "ok"
// or an errno's name.
Reporting ClassifyReporting(const std::string& write, const std::string& first_sync,
                            const std::string& second_sync);

// "ok", or the errno's name ("EIO", "ENOSPC", "EROFS"), or "errno N", or the message when the
// status carries no errno.
std::string CallResult(const Status& status);

// The page the experiments write: the marker at the head of each 512-byte sector, the fill byte
// after it.
std::string MarkedPage(const std::string& marker, char fill);

// Runs one experiment on a freshly formatted device (device.Format(fs) is the caller's): mounts,
// writes and syncs a file, breaks what `fault` says, syncs again and reads back, checks whether
// the filesystem still takes a file, then unmounts and mounts again. The device is left
// unmounted and its faults cleared.
FsyncErrorOutcome RunFsyncErrorExperiment(platform::Platform& platform,
                                          platform::CrashDevice& device, const platform::FsSpec& fs,
                                          FaultKind fault, platform::SyncCall sync);

}  // namespace durprobe::probes
