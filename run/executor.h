// The executor's entry point for run, probe, sqlite, compare and check: scratch directories made
// and removed, the plan's schedule (run/path_by_path.h, run/interleaved.h) run, interruption. The
// steps the schedules share are run/schedule.h's. It measures and assembles the report model; it
// never prints (listeners do).
#pragma once

#include "model/report.h"
#include "model/run_events.h"
#include "platform/platform.h"
#include "platform/status.h"
#include "run/plan.h"

namespace durprobe::run {

struct Execution {
  model::Report report;
  // InvalidArgument when a path could not get a scratch directory (nothing was measured);
  // Interrupted(signal) after SIGINT/SIGTERM, with report holding what finished before it
  // (context.interrupted set, targets[].unfinished listing what never started); Error when
  // scratch could not be removed.
  Status status;
};

// Creates a scratch directory in every measured path before measuring anything, runs the plan's
// schedule announcing each step to listener, and removes the scratch directories on every way
// out. The report's targets are in the order of plan.paths.
Execution Execute(platform::Platform& platform, const Plan& plan, model::RunListener& listener);
Execution Execute(platform::Platform& platform, const Plan& plan);

// The smallest `ulimit -s` a measurement runs under (SQLite and the probes' deepest calls, with
// room to spare); below it durprobe refuses before making any scratch, instead of a SIGSEGV.
inline constexpr std::uint64_t kMinStackBytes = 64 * 1024;
// InvalidArgument naming the limit when RLIMIT_STACK is below kMinStackBytes.
Status CheckStackLimit(platform::Platform& platform);

}  // namespace durprobe::run
