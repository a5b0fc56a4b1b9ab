// compare --try: runs the test of the leading cause (explain/causes.h, Trial) on the spot, as a
// short compare of its own, and says what it measured (explain/trial.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "explain/compare_analysis.h"
#include "platform/platform.h"
#include "run/requests.h"

namespace durprobe::run {

// The leading cause of the comparison's verdicts, tested: compare_paths and nocow_dir run the
// probes (no SQLite) on the two paths, sqlite_wal DELETE/FULL and WAL/FULL on the path, each
// with the --quick budget unless budget's --budget says otherwise; request is the compare's
// own. A cause whose test changes the system (a remount) or needs another host is not run: the
// result says so.
std::optional<explain::TrialResult> TryLeadingCause(platform::Platform& platform,
                                                    const CompareRequest& request,
                                                    const BudgetRequest& budget,
                                                    const explain::Comparison& comparison);

}  // namespace durprobe::run
