// compare --try: runs the test of the leading cause (explain/causes.h, Trial) on the
// spot, as a short compare of its own, and says what it measured (explain/trial.h).
#pragma once

#include <optional>

#include "cli/cmd_compare.h"
#include "explain/compare_analysis.h"
#include "platform/platform.h"

namespace durprobe::cli {

// The leading cause of the comparison's verdicts, tested: compare_paths and nocow_dir run the
// probes (no SQLite) on the two paths, sqlite_wal DELETE/FULL and WAL/FULL on the path, each
// with the --quick budget unless --budget says otherwise. A cause whose test changes the system
// (a remount) or needs another host is not run: the result says so.
std::optional<report::TrialResult> TryLeadingCause(platform::Platform& platform,
                                                   const CompareOptions& options,
                                                   const report::Comparison& comparison);

}  // namespace durprobe::cli
