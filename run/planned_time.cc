#include "run/planned_time.h"

#include <algorithm>

namespace durprobe::run {

std::uint64_t PlannedProbeNs(const probes::StopRule& rule) { return rule.max_ns + rule.warmup_ns; }

std::uint64_t PlannedWorkloadNs(const sqlite_bench::WorkloadPlan& plan, sqlite_bench::Workload w) {
  return std::max(sqlite_bench::WorkloadBudget(plan, w), kMinWorkloadNs);
}

void ExpectItems(const Plan& plan, Progress& progress) {
  // Every repeat's items (--repeat): the estimate of what is left covers them all.
  int rounds =
      (plan.schedule == Schedule::kInterleaved ? std::max(plan.rounds, 1) : 1) * plan.Repeats();
  for (std::size_t p = 0; p < plan.paths.size(); ++p) {
    if (plan.run_probes) {
      for (int r = 0; r < rounds; ++r) {
        for (const probes::ProbeSpec& spec : plan.probes.specs) {
          progress.Expect(PlannedProbeNs(probes::RuleFor(spec, plan.probes.rule)));
        }
      }
    }
    for (std::size_t i = 0; i < plan.ops.size() * rounds; ++i) {
      progress.Expect(PlannedProbeNs(plan.probes.rule));
    }
    if (plan.run_concurrency) {
      for (std::uint64_t ns : ConcurrencyItemsNs(plan.concurrency)) progress.Expect(ns);
    }
    if (plan.run_sqlite) {
      const sqlite_bench::CommitOptions& o = plan.sqlite.options;
      const std::size_t configs = plan.sqlite.configs.size();
      const std::size_t repeats = static_cast<std::size_t>(plan.Repeats());
      if (plan.schedule == Schedule::kInterleaved) {  // each configuration whole, each repeat
        for (std::size_t i = 0; i < configs * repeats; ++i) progress.Expect(o.budget_ns);
      } else {  // every configuration's setup, then its repetitions in rounds (RunSqliteOn)
        for (std::size_t i = 0; i < configs; ++i) progress.Expect(0);
        for (std::size_t i = 0; i < configs * o.TimedRepetitions() * repeats; ++i) {
          progress.Expect(o.budget_ns / o.TimedRepetitions());
        }
      }
    }
    if (plan.run_workloads) {
      for (sqlite_bench::Workload w : sqlite_bench::SelectedWorkloads(plan.workloads)) {
        progress.Expect(PlannedWorkloadNs(plan.workloads, w));
      }
    }
  }
}

std::vector<probes::ConcurrencySpec> ConcurrencyCells(const ConcurrencyPlan& plan) {
  std::vector<probes::ConcurrencySpec> cells;
  for (probes::WriterMode mode : plan.modes) {
    for (std::uint32_t n : plan.writers) {
      cells.push_back({n, mode, plan.primitive, plan.write_size});
    }
  }
  return cells;
}

std::vector<std::uint64_t> ConcurrencyItemsNs(const ConcurrencyPlan& plan) {
  std::vector<std::uint64_t> items(ConcurrencyCells(plan).size(), PlannedProbeNs(plan.rule));
  if (plan.queue_depth_ns > 0) items.push_back(plan.queue_depth_ns);
  return items;
}

std::uint64_t PhasePlan::Total() const {
  return Counted(probes) + Counted(concurrency) + Counted(sqlite) + Counted(workloads);
}

PhasePlan PlannedPhases(const Plan& plan) {
  PhasePlan p;
  const std::uint64_t slice = plan.probes.rule.max_ns;
  std::uint64_t rounds = plan.schedule == Schedule::kInterleaved && plan.rounds > 1
                             ? static_cast<std::uint64_t>(plan.rounds)
                             : 1;
  // A probe that waits for its p99 takes several slices (probes::SharesOf).
  std::uint64_t items =
      (plan.run_probes ? probes::SharesOf(plan.probes.specs, plan.probes.rule) : 0) +
      plan.ops.size();
  const std::uint64_t repeats = static_cast<std::uint64_t>(plan.Repeats());
  p.probes = items * rounds * repeats * slice;
  if (plan.run_concurrency) {
    for (std::uint64_t ns : ConcurrencyItemsNs(plan.concurrency)) p.concurrency += ns;
  }
  if (plan.run_sqlite) {
    p.sqlite = plan.sqlite.options.fixed_commits
                   ? kNoDeadline
                   : plan.sqlite.configs.size() * plan.sqlite.options.budget_ns * repeats;
  }
  if (plan.run_workloads) p.workloads = plan.workloads.options.budget_ns;
  return p;
}

}  // namespace durprobe::run
