// One probe's (or op cost's) samples on one path over the repeats (--repeat N, run/plan.h
// Plan::repeats): each repeat's own, merged over its rounds in the interleaved schedule, so the
// report's row can pool them all and still say what each repeat measured (model/repeats.h).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "model/repeats.h"
#include "probes/probe_result.h"
#include "probes/probe_spec.h"
#include "probes/timed_loop.h"
#include "sqlite_bench/commit_result.h"
#include "sqlite_bench/commit_run.h"

namespace durprobe::run {

class RepeatedSamples {
 public:
  // Adds a slice to repeat's samples; repeats count from 0 and never go back.
  void Add(int repeat, const probes::LoopOutcome& slice);
  // How many repeats sampled it.
  int repeats() const { return static_cast<int>(per_repeat_.size()); }
  // Nothing failed so far: a probe that failed or is unsupported once is not run again there.
  bool Usable() const;
  // Every repeat's samples together.
  probes::LoopOutcome Merged() const;
  // The report's row, from every repeat's samples together (its distribution, operation count
  // and confidence interval). When planned >= 2, its p50, p99 and ops/s are the medians of the
  // repeats' own and spreads is set to them, as the row at index in Target::probes.
  probes::ProbeResult Result(const probes::ProbeSpec& spec, double target_ci, int planned,
                             std::size_t index, std::optional<model::ProbeRepeats>& spreads) const;

 private:
  std::vector<probes::LoopOutcome> per_repeat_;
  int last_repeat_ = -1;
};

// One SQLite configuration's repeats in a path's matrix (its repetitions run N times over):
// where each repeat's repetitions end and its commits' latency.
class RepeatedCommits {
 public:
  // Closes the repeat under way on run, if it timed a repetition since the last one closed.
  void EndRepeat(sqlite_bench::CommitRun& run);
  // With planned >= 2: the row's figures made the medians of the repeats' (each repeat's
  // commits/s the median of its repetitions') and their spreads returned; else nullopt.
  std::optional<model::SqliteRepeats> Apply(sqlite_bench::CommitResult& row, int planned) const;

 private:
  std::vector<std::uint32_t> ends_;  // repetitions done when each repeat closed
  std::vector<probes::LatencySummary> latency_;
};

// One configuration's whole runs over the repeats (compare's matrix runs each configuration
// whole, once a repeat) as one row, with their spreads in spreads when there are two or more:
// its counts, repetitions and windows are every run's together, its latency's count, extremes
// and mean every commit's; its commits/s, p50 and p99 the medians of the runs' (as
// model::UseMedians), its other percentiles the run's of median commits/s. A run that did not
// end ok gives the row its outcome.
sqlite_bench::CommitResult CombineRuns(std::vector<sqlite_bench::CommitResult> runs,
                                       std::optional<model::SqliteRepeats>& spreads);

}  // namespace durprobe::run
