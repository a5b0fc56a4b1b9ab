// The table of `durprobe faults` as every format shows it: the same columns and cells for the
// console, Markdown, HTML and CSV, so a column is added once. Formats only.
#pragma once

#include <string>
#include <vector>

#include "probes/fsync_error_result.h"

namespace durprobe::render {

// The short heads of the experiments' table: fault, sync, write, 1st sync, retry, 2nd fd, cached,
// evicted, on disk, size, fs after, remount, a retry.
const std::vector<std::string>& FsyncErrorHeads();

// One experiment's cells, under FsyncErrorHeads (an experiment that did not run has its status
// and reason in the third cell and the rest empty).
std::vector<std::string> FsyncErrorCells(const probes::FsyncErrorOutcome& o);

// The SQLite table's heads and cells: journal, COMMIT returned, reopened, rows, after remount,
// rows.
const std::vector<std::string>& SqliteSyncFailureHeads();
std::vector<std::string> SqliteSyncFailureCells(const probes::SqliteSyncFailure& f);

}  // namespace durprobe::render
