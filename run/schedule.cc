#include "run/schedule.h"

#include <fmt/format.h>

#include "run/concurrency.h"
#include "run/executor.h"

namespace durprobe::run {

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

bool ScratchesInPlace(const RunState& s) {
  if (s.stopped != nullptr && !s.stopped->ok()) return false;
  for (const std::unique_ptr<platform::ScratchDir>& dir : s.scratch) {
    Status here = dir->CheckInPlace();
    if (here.ok()) continue;
    if (s.stopped != nullptr) *s.stopped = std::move(here);
    return false;
  }
  return true;
}

bool MayStart(const RunState& s) {
  return !Interrupted() && !s.timeline.Spent() && ScratchesInPlace(s);
}

std::string RepetitionsLabel(const std::string& label, std::uint32_t done, std::uint32_t planned) {
  return fmt::format("{}: {} of {} repetitions", label, done, planned);
}

std::string RepeatsLabel(const std::string& label, int done, int planned) {
  return fmt::format("{}: {} of {} repeats", label, done, planned);
}

std::string RepeatPhase(const std::string& phase, int repeat, int repeats) {
  return repeats > 1 ? fmt::format("repeat {}/{} {}", repeat + 1, repeats, phase) : phase;
}

report::UnfinishedReason StopReason() {
  return Interrupted() ? report::Unfinished::kInterrupted : report::Unfinished::kBudget;
}

}  // namespace durprobe::run
