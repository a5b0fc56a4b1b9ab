// The budget as a promise (docs/start.md, "How long it takes"): one deadline for the whole run,
// and each phase's share of the time left when it starts, in proportion to what was planned for
// it among the phases still to come, so a slow first phase cannot starve the rest. A schedule
// starts a step only while its phase has time left, and gives a started step no more than that
// time (CutTo, sqlite_bench::CommitOptions::deadline_ns): a run ends within its budget plus the
// step in flight at the deadline.
#pragma once

#include <cstdint>
#include <limits>

#include "platform/platform.h"
#include "probes/timed_loop.h"

namespace durprobe::run {

inline constexpr std::uint64_t kNoDeadline = std::numeric_limits<std::uint64_t>::max();

class Timeline {
 public:
  // budget_ns 0: no deadline (a plan of fixed work, crashsim). Before the first StartPhase the
  // run's own deadline holds.
  Timeline(platform::Platform& platform, std::uint64_t budget_ns);

  // Starts a phase planned to take planned_ns, with later_ns planned for the phases after it:
  // its deadline is planned_ns / (planned_ns + later_ns) of the time left, never past the
  // run's. A phase of fixed work (--commits) passes kNoDeadline: it is not cut.
  void StartPhase(std::uint64_t planned_ns, std::uint64_t later_ns);

  // Whether the phase's deadline has passed: a step not yet started is left out.
  bool Spent() const;
  // Whether the run's deadline has passed: a step with a reserve of operations
  // (run/flush_counting.h) may still start after its phase's, until then.
  bool RunSpent() const;
  // ns until the phase's deadline; kNoDeadline without one.
  std::uint64_t Left() const;
  // The phase's deadline on the platform's clock; 0 without one.
  std::uint64_t DeadlineNs() const { return phase_ns_ == kNoDeadline ? 0 : phase_ns_; }
  // The whole run's deadline on the platform's clock; 0 without one. A reserve of operations
  // (run/flush_counting.h ReserveFlushEvidence) may run past a phase's deadline, never past it.
  std::uint64_t RunDeadlineNs() const { return run_ns_ == kNoDeadline ? 0 : run_ns_; }

 private:
  platform::Platform& platform_;
  std::uint64_t run_ns_;    // the run's deadline on the platform's clock, or kNoDeadline
  std::uint64_t phase_ns_;  // the current phase's
};

// Shares a phase's time left among the timed steps still to run (probes, compare's slices),
// each share less the fixed cost the steps so far have shown beyond their timed part (setup,
// warm-up, the reference samples between them: all the time since the step before ended), so
// the last steps fit rather than being left out. CutTo keeps a share within the step's plan.
// A step may take several shares (a probe that waits for its p99, probes::SharesOf): shares
// counts them all, and each step says how many it takes.
class StepShares {
 public:
  // From now, steps with shares shares in all share the phase of timeline.
  StepShares(platform::Platform& platform, const Timeline& timeline, std::uint64_t shares);
  // What the next step, of shares shares, may time: kNoDeadline without a deadline.
  std::uint64_t Share(std::uint64_t shares = 1) const;
  // A step of shares shares ended after timing timed_ns.
  void Done(std::uint64_t timed_ns, std::uint64_t shares = 1);
  // Until when the next step, of shares shares, may run for a reserve of operations
  // (run/flush_counting.h) when reserves may last until until_ns: its part of the time to then,
  // as many parts as shares still to run, so one probe's reserve on slow syncs cannot take the
  // time of the probes after it (check --preset etcd --quick on 10 ms syncs once measured one
  // probe of four). until_ns 0 (no limit) stays 0; a time already past is kept.
  std::uint64_t ReserveUntil(std::uint64_t until_ns, std::uint64_t shares = 1) const;

 private:
  platform::Platform& platform_;
  const Timeline& timeline_;
  std::uint64_t shares_, done_ = 0, fixed_ns_ = 0, last_ns_;
};

// The end of take parts of the time from now_ns to until_ns cut into parts equal parts (all of it
// when take >= parts). until_ns 0 (no limit) stays 0, and a time already past is kept.
std::uint64_t PartUntil(std::uint64_t now_ns, std::uint64_t until_ns, std::uint64_t parts,
                        std::uint64_t take = 1);

// rule with its time limits cut to left_ns: warm-up and the timed phase end by then, after one
// operation each at the least (probes/timed_loop.h).
probes::StopRule CutTo(probes::StopRule rule, std::uint64_t left_ns);

}  // namespace durprobe::run
