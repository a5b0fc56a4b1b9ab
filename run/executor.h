// The one executor for run, probe, sqlite, compare and check: scratch directories, inspection,
// probes, the SQLite matrix and workloads, plausibility, cleanup and interruption, in one place.
// It measures and assembles the report model; it never prints (listeners do).
#pragma once

#include "model/report.h"
#include "model/run_events.h"
#include "platform/platform.h"
#include "platform/status.h"
#include "run/plan.h"

namespace durprobe::run {

struct Execution {
  report::Report report;
  // InvalidArgument when a path could not get a scratch directory (nothing was measured);
  // Interrupted(signal) after SIGINT/SIGTERM, with report holding what finished before it
  // (context.interrupted set, targets[].unfinished listing what never started); Error when
  // scratch could not be removed.
  Status status;
};

// Creates a scratch directory in every measured path before measuring anything, runs the plan's
// schedule announcing each step to listener, and removes the scratch directories on every way
// out. The report's targets are in the order of plan.paths.
Execution Execute(platform::Platform& platform, const Plan& plan, report::RunListener& listener);
Execution Execute(platform::Platform& platform, const Plan& plan);

// Fills target.mount, adds the mount and environment findings and the durability verdict from
// the layers; what cannot be identified becomes a finding (identification never stops a run).
// With evidence (--evidence), a power-cut test's result joins the device layer when it speaks
// for the path (analysis/powercut_verdict.h).
void InspectTarget(platform::Platform& platform, const report::Context& context,
                   report::Target& target, const report::PowercutEvidence* evidence = nullptr);

// Steps both schedules (run/path_by_path.h, run/interleaved.h) take; the analysis of what they
// measured is run/analyze_target.h.
// True once SIGINT or SIGTERM arrived (platform/interrupt.h); a schedule then starts nothing more.
bool Interrupted();
// The smallest `ulimit -s` a measurement runs under (SQLite and the probes' deepest calls, with
// room to spare); below it durprobe refuses before making any scratch, instead of a SIGSEGV.
inline constexpr std::uint64_t kMinStackBytes = 64 * 1024;
// InvalidArgument naming the limit when RLIMIT_STACK is below kMinStackBytes.
Status CheckStackLimit(platform::Platform& platform);

}  // namespace durprobe::run
