// The path-by-path schedule (run, probe, sqlite, check; run/plan.h Schedule::kPathByPath): each
// target measured to the end before the next one starts. Also, for both schedules, the items the
// plan holds and how long each is planned to take.
#pragma once

#include <cstdint>

#include "probes/timed_loop.h"
#include "run/plan.h"
#include "run/progress.h"
#include "run/schedule.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::run {

// Announces every item of the plan to progress (Expect) in the order the schedule runs them.
void ExpectItems(const Plan& plan, Progress& progress);

void RunPathByPath(RunState& state);

// Planned time of one item, for the progress estimate.
std::uint64_t PlannedProbeNs(const probes::StopRule& rule);
std::uint64_t PlannedWorkloadNs(const sqlite_bench::WorkloadPlan& plan, sqlite_bench::Workload w);

}  // namespace durprobe::run
