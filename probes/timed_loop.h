// The timed loop: warm-up, then operations until the median is known well enough or the time
// is up. Stop rule: at least min_ops and min_time, then stop as soon as the 95% confidence
// interval of the median is within +/- target_ci of it (and, where the rule asks for the tail,
// the p99's within +/- tail_target_ci of it); never past max_time.
#pragma once

#include <cstdint>

#include "platform/platform.h"
#include "probes/flush_tally.h"
#include "probes/histogram.h"
#include "probes/probe_ops.h"
#include "probes/probe_result.h"

namespace durprobe::probes {

struct StopRule {
  std::uint64_t warmup_ops = 5;
  std::uint64_t warmup_ns = 50'000'000;  // warm-up ends at whichever comes first
  std::uint64_t min_ops = 30;
  std::uint64_t min_ns = 200'000'000;
  std::uint64_t max_ns = 2'000'000'000;
  std::uint64_t max_ops = 0;  // 0: no cap
  // Operations the loop runs even past max_ns and max_ops, and before it may stop converged (a
  // durable probe's flush-count evidence: run/flush_counting.h ReserveFlushEvidence; a check
  // rule's p99: run/check_plan.h CheckReserves), until reserve_until_ns on the
  // platform's clock at the latest (the run's deadline; 0: no limit). 0: none reserved. An
  // interruption or a failure still ends the loop at once.
  std::uint64_t reserved_ops = 0;
  std::uint64_t reserve_until_ns = 0;
  // The part of the reserve a verdict cannot do without (a durable probe's flush-count evidence),
  // when the rest of it ends sooner (reserve_until_ns: check's p99 reserve ends at its part of the
  // time left, run/path_by_path.cc): these run until evidence_until_ns (the run's deadline).
  std::uint64_t evidence_ops = 0;
  std::uint64_t evidence_until_ns = 0;
  // Set: whether the flush count decides what the syncs did (analysis::FlushCountDecides). While
  // it does not (a neighbour flushing the same disk, its rate read from a short control), the
  // same writes without the sync go on once the operations end, with their idle slices, for at
  // most twice the timed time and until settle_until_ns (the probe's part of the time left; 0:
  // no limit but that), so the background is known well enough to tell the syncs' flushes from
  // it. Untimed: in no latency and not in the elapsed time, in the wall time.
  bool (*flush_count_decides)(const FlushTally&) = nullptr;
  std::uint64_t settle_until_ns = 0;
  double target_ci = 0.05;  // relative half-width of the median's 95% CI
  // > 0: the p99 is read from this probe (probes/runner.h TailMatters), so the loop also waits
  // for kTailMinOps operations and the p99's 95% CI within +/- tail_target_ci of the p99.
  double tail_target_ci = 0.0;
  // With tail_target_ci > 0: every probe the rule runs waits for its tail (check's rules read
  // each probe's p99), not only those TailMatters names.
  bool tail_every_probe = false;
  // The figure's interval is shown, so the loop stops early only once it may be (CiSupported);
  // the reference probe's samples, never shown with one, turn it off and stay short.
  bool ci_shown = true;
  // > 0: one timed operation starts every pace_ns at most (ProbeSpec::paced_per_sec); the wait
  // (Platform::SpinNanos: the CPU kept busy; under a CPU quota, probes/spin_budget.h) is
  // untimed, like maintenance: in no operation's latency, not in the elapsed time.
  std::uint64_t pace_ns = 0;
  // > 0: each operation follows work_ns on the CPU (ProbeSpec::work_us), counted in the elapsed
  // time but in no operation's latency, so ops/s is one client's commit rate.
  std::uint64_t work_ns = 0;
  std::uint32_t work_round_trips = 0;  // > 0: the work as round trips to a partner thread
  // The block devices whose flush counters the loop reads around its slices, each slice of
  // kSeriesWindowNs followed by its control and an idle slice (probes/flush_tally.h); none: the
  // loop counts nothing.
  FlushCounting flush_counting;
};

// On operations faster than this (tmpfs, a no-op sync), reading the clock around the sync call
// would be a visible share of the operation, so the sync alone is timed on one operation in
// kSyncSampleEvery; every operation is still timed whole.
inline constexpr std::uint64_t kFastOpNs = 20'000;
inline constexpr std::uint64_t kSyncSampleEvery = 8;

// The latency series keeps one point per this much of the timed phase.
inline constexpr std::uint64_t kSeriesWindowNs = 100'000'000;

// The fewest operations a p99 stop may rest on: one in a hundred lies above the p99, so a p99
// from fewer is the slowest operation under another name.
inline constexpr std::uint64_t kTailMinOps = 100;
// The fewest operations whose slowest bounds the p99 from above with 97.5% confidence (all n
// under the p99 has chance 0.99^n, under 2.5% from 367 on): below it a p99 can be shown over a
// limit (its interval's low end) but never shown under one.
inline constexpr std::uint64_t kTailBoundOps = 367;

// Whether the CI targets of rule hold for the operations in total: the median's, and the p99's
// where the rule asks for it. Counts and times (min_ops, min_ns) are the loop's to check.
bool TargetsMet(const Histogram& total, const StopRule& rule);

struct LoopOutcome {
  Histogram total;
  Histogram sync;  // every operation's sync, or a sample (sync_sample_every)
  std::uint64_t sync_sample_every = 1;
  std::uint64_t ops = 0;
  std::uint64_t warmup_ops = 0;
  std::uint64_t elapsed_ns = 0;
  std::uint64_t wall_ns = 0;  // the timed phase on the clock: maintenance and pacing included
  bool converged = false;
  bool has_sync_part = false;
  std::vector<SeriesPoint> series;  // one point per kSeriesWindowNs of the timed phase
  Status status;                    // the first failure (the loop stops there), or an interruption
  CpuUse cpu;          // the quota, the waits spun and slept, the throttling over the timed phase
  FlushTally flushes;  // counted where the rule's flush_counting names devices
};

LoopOutcome RunTimedLoop(platform::Platform& platform, ProbeOp& op, const StopRule& rule);

// Setup, the timed loop, teardown: the first failure of the three ends up in status.
LoopOutcome Measure(platform::Platform& platform, ProbeOp& op, const StopRule& rule);

// Adds more's samples to into (rounds of the same probe); into keeps its first failure.
// converged is left for the caller to re-evaluate on the merged histogram.
void Merge(LoopOutcome& into, const LoopOutcome& more);

}  // namespace durprobe::probes
