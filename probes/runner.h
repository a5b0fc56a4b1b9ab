// Runs a list of probes in one scratch directory and returns their results in order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "probes/probe_ops.h"
#include "probes/probe_result.h"
#include "probes/timed_loop.h"

namespace durprobe::probes {

struct ProbePlan {
  std::vector<ProbeSpec> specs;
  StopRule rule;  // per probe
  // Per spec, in specs' order, the operations it keeps in reserve (StopRule::reserved_ops) where
  // its claim needs more than rule's (check: a p99 rule's probe, kTailBoundOps); empty: rule's.
  std::vector<std::uint64_t> reserves;
  OpOptions op_options;
  // Called before each probe starts (index from 0); the CLI shows progress with it.
  std::function<void(std::size_t index, std::size_t total, const ProbeSpec& spec)> on_start;
};

// The default set: none, fsync, fdatasync, odsync at 4 KiB, overwrite and append; dir_fsync
// after create and rename; full_fsync and barrier_fsync where the platform has them; then the
// modern sync paths: odirect_dsync (overwrite and append), rwf_dsync, io_uring_fsync and
// io_uring_fdatasync (overwrite).
std::vector<ProbeSpec> DefaultSpecs(platform::Platform& platform);

struct Selection {
  std::vector<Primitive> primitives;  // empty: the default set's
  std::vector<Pattern> patterns;  // empty: each primitive's own (overwrite+append, create+rename)
  std::vector<std::uint64_t> sizes;  // empty: 4 KiB
};
// The cross product of a selection, keeping the pairs that go together. InvalidArgument when a
// chosen primitive is left with no pattern.
Result<std::vector<ProbeSpec>> ExpandSelection(platform::Platform& platform, const Selection& sel);

// The shortest timed phase a probe is given, however many share the budget.
inline constexpr std::uint64_t kMinProbeNs = 50'000'000;
// Splits budget_ns evenly over n probes, each at least kMinProbeNs.
StopRule RuleForBudget(std::uint64_t budget_ns, std::size_t n, double target_ci);

// The probes whose p99 a database user plans with (etcd's and PostgreSQL's WAL syncs): fsync
// and fdatasync overwriting 4 KiB, one write a sync, back to back.
bool TailMatters(const ProbeSpec& spec);
// A probe that waits for its tail takes this many shares of the probes' time, the others one.
inline constexpr std::uint64_t kTailShares = 3;
// The p99's CI target next to the median's: a tail is known less tightly for the same time.
inline constexpr double kTailCiFactor = 2.0;
// Whether rule waits for spec's tail (StopRule::tail_target_ci, tail_every_probe).
bool WaitsForTail(const ProbeSpec& spec, const StopRule& rule);
// The shares of a probe phase spec takes under rule, and all of specs' together.
std::uint64_t SharesOf(const ProbeSpec& spec, const StopRule& rule);
std::uint64_t SharesOf(const std::vector<ProbeSpec>& specs, const StopRule& rule);
// The probe phase's rule for specs: budget_ns split into their shares, the p99 waited for on
// the probes TailMatters names (kTailCiFactor x target_ci). RuleFor gives one probe its own.
StopRule PlanRule(std::uint64_t budget_ns, const std::vector<ProbeSpec>& specs, double target_ci);
// plan_rule for spec: its shares of time, its tail target only where it waits for its tail.
StopRule RuleFor(const ProbeSpec& spec, const StopRule& plan_rule);

// One timed run of spec, as mergeable samples (compare runs several rounds and merges them).
LoopOutcome SampleProbe(platform::Platform& platform, const std::string& scratch_dir,
                        const ProbeSpec& spec, const StopRule& rule, const OpOptions& options);
// The report's view of samples: statistics, outcome and reason.
ProbeResult ToResult(const ProbeSpec& spec, const LoopOutcome& samples, double target_ci);

ProbeResult RunProbe(platform::Platform& platform, const std::string& scratch_dir,
                     const ProbeSpec& spec, const StopRule& rule, const OpOptions& options);

// Runs every spec; stops early (the rest are not run) only when interrupted.
std::vector<ProbeResult> RunProbes(platform::Platform& platform, const std::string& scratch_dir,
                                   const ProbePlan& plan);

}  // namespace durprobe::probes
