// How long each item of a plan is planned to take, for the progress estimate and the deadline's
// phases: pure functions of the plan, below every schedule and phase that runs it.
#pragma once

#include <cstdint>
#include <vector>

#include "probes/concurrency.h"
#include "probes/timed_loop.h"
#include "run/deadline.h"
#include "run/plan.h"
#include "run/progress.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::run {

// A workload's least planned time: locks take no budget but real time.
inline constexpr std::uint64_t kMinWorkloadNs = 500'000'000;

// Planned time of one item, for the progress estimate.
std::uint64_t PlannedProbeNs(const probes::StopRule& rule);
std::uint64_t PlannedWorkloadNs(const sqlite_bench::WorkloadPlan& plan, sqlite_bench::Workload w);

// The concurrency phase's cells in the order it runs them: each mode, each writer count.
std::vector<probes::ConcurrencySpec> ConcurrencyCells(const ConcurrencyPlan& plan);
// The progress items the phase announces on one path: one per cell, one for the queue depth.
std::vector<std::uint64_t> ConcurrencyItemsNs(const ConcurrencyPlan& plan);

// Announces every item of the plan to progress (Expect) in the order the schedule runs them.
void ExpectItems(const Plan& plan, Progress& progress);

// What each phase on one path is planned to take, from the plan's own limits (in the
// interleaved schedule, the probes' and op costs' slices over every round). kNoDeadline for a
// phase of fixed work (SQLite with --commits).
struct PhasePlan {
  std::uint64_t probes = 0, concurrency = 0, sqlite = 0, workloads = 0;
  // The sum, phases of fixed work counted as 0.
  std::uint64_t Total() const;
  // ns, or 0 for a phase of fixed work: what it weighs against the others.
  static std::uint64_t Counted(std::uint64_t ns) { return ns == kNoDeadline ? 0 : ns; }
};
PhasePlan PlannedPhases(const Plan& plan);

}  // namespace durprobe::run
