// compare's executor: the same probes on every path in one process, in interleaved rounds
// (round 1: probe A on every path, probe B on every path, ...; then round 2), so machine noise
// falls on all paths alike. Samples of a probe are merged across rounds.
#pragma once

#include <string>
#include <vector>

#include "platform/platform.h"
#include "probes/op_cost.h"
#include "probes/runner.h"
#include "report/compare_analysis.h"
#include "sqlite_bench/commit_bench.h"

namespace durprobe::cli {

struct ComparePlan {
  std::vector<std::string> paths;  // resolved, absolute; the first is the baseline
  std::vector<probes::ProbeSpec> specs;
  std::vector<probes::FileOp> ops;
  int rounds = 3;
  probes::StopRule rule;  // per probe, per path, per round
  probes::OpOptions op_options;
  bool run_sqlite = false;  // each configuration on every path in turn, after the probe rounds
  sqlite_bench::MatrixPlan sqlite;
  bool verbose = false;
};

struct CompareExecution {
  report::Comparison comparison;
  Status status;  // not ok when a path could not be measured at all, or on interruption
};

CompareExecution ExecuteCompare(platform::Platform& platform, const ComparePlan& plan);

}  // namespace durprobe::cli
