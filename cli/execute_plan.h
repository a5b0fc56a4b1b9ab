// The emit path of a measuring command: check the destinations, run the plan with the live console
// and the progress line, write every destination, and turn the end of the run into an exit status.
#pragma once

#include <functional>
#include <optional>

#include "cli/standard_options.h"
#include "explain/compare_analysis.h"
#include "model/report.h"
#include "platform/platform.h"
#include "run/plan.h"

namespace durprobe::cli {

// What a finished run's report adds to the exit status (e.g. a failed SQLite configuration
// gives 1); 0 when nothing does.
using ReportVerdict = std::function<int(const model::Report&)>;

// The emit path for a measured report: checks the destinations (before measuring), runs plan
// with the live console on stdout (unless quiet or a format takes stdout) and the progress line
// on a terminal's stderr, then writes every destination, also after an interruption. Returns
// 128+signal when interrupted, 2 on bad input, else verdict's status.
// analyze, when given, completes the report after measuring and before anything is written
// (check evaluates its rules there). interrupted_exit, when 0 or more, replaces 128+signal as
// the status of an interrupted run (check: 2, not measured); the signal is still named on stderr.
int ExecutePlan(platform::Platform& platform, run::Plan plan, const OutputOptions& out,
                const ReportVerdict& verdict = nullptr,
                const std::function<void(model::Report&)>& analyze = nullptr,
                int interrupted_exit = -1);

// compare --try: the leading cause's test, run once the comparison is known (cli/compare_try.h).
using TryCause =
    std::function<std::optional<explain::TrialResult>(const explain::Comparison& comparison)>;

// The same for compare: the console table comes at the end (a column per path). try_cause, when
// given and the run was not interrupted, adds what it measured to the comparison before it is
// written.
int ExecuteComparePlan(platform::Platform& platform, run::Plan plan, const OutputOptions& out,
                       const TryCause& try_cause = nullptr);

}  // namespace durprobe::cli
