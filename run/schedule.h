// The executor's two schedules (run/plan.h Schedule: run/path_by_path.cc, run/interleaved.cc)
// and the steps they share, declared here; the reference probe and the rebasing of results
// to the run's start are in run/reference.h.
#pragma once

#include <memory>
#include <vector>

#include "platform/platform.h"
#include "platform/scratch.h"
#include "report/model/report.h"
#include "report/model/run_events.h"
#include "run/plan.h"
#include "run/progress.h"

namespace durprobe::run {

struct RunState {
  platform::Platform& platform;
  const Plan& plan;
  report::RunListener& listener;
  Progress& progress;
  report::Report& report;
  std::vector<std::unique_ptr<platform::ScratchDir>>& scratch;  // one per path, when measuring
  std::uint64_t origin_ns = 0;  // the run's start: results are rebased to it (run/reference.h)
};

// Announces every item of the plan to progress (Expect) in the order the schedule runs them.
void ExpectItems(const Plan& plan, Progress& progress);

void RunPathByPath(RunState& state);
void RunInterleaved(RunState& state);

// Planned time of one item, for the progress estimate.
std::uint64_t PlannedProbeNs(const probes::StopRule& rule);
std::uint64_t PlannedWorkloadNs(const sqlite_bench::WorkloadPlan& plan, sqlite_bench::Workload w);

// The plausibility findings of a measured target (probes against the device's facts).
void AddPlausibilityFindings(report::Target& target);

bool Interrupted();

}  // namespace durprobe::run
