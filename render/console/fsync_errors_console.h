// `durprobe faults` as terminal tables: per filesystem, one row per experiment (what each sync
// returned, what the page held, the filesystem's state, what a retry would have done), then
// SQLite's commit on a failing sync. Formats only.
#pragma once

#include <ostream>
#include <vector>

#include "probes/fsync_error_result.h"

namespace durprobe::render::console {

void PrintFsyncErrors(const std::vector<probes::FsyncErrorsResult>& results, std::ostream& out);

}  // namespace durprobe::render::console
