// Fills the report's context block: tool version, host, OS, kernel, SQLite, build, start time.
#pragma once

#include <string>

#include "platform/platform.h"
#include "report/report.h"

namespace durprobe::report {

Context MakeContext(platform::Platform& platform, const std::string& command);

// The SQLite compile options that change what a sync does or how often one happens (synchronous
// defaults, WAL, journal, atomic writes, sector and page size, mmap, locking, dirsync).
std::vector<std::string> SyncRelevantCompileOptions(const std::vector<std::string>& all);

}  // namespace durprobe::report
