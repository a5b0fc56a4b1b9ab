// The faults section: per filesystem, what each sync returned after a failed write, what the
// page held, and SQLite's COMMIT on a failing sync.
#pragma once

#include <string>
#include <vector>

#include "probes/fsync_error_result.h"

namespace durprobe::render::html {

// "" when faults did not run.
std::string FsyncErrorsSection(const std::vector<probes::FsyncErrorsResult>& results);

}  // namespace durprobe::render::html
