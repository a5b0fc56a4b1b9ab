// `durprobe compare PATH PATH...`: the same probes on every path, side by side, with ratios
// against the first path and a verdict on where each path's penalty comes from.
#pragma once

#include "cli/cmd_probe.h"
#include "cli/cmd_sqlite.h"
#include "run/plan.h"

namespace durprobe::cli {

struct CompareOptions {
  ProbeOptions probe;  // paths, probe selection and common options
  SqliteMatrixOptions matrix;
  bool no_sqlite = false;
  int rounds = 3;
  bool try_leading = false;  // --try: run the leading cause's test after the comparison
};

Subcommand SetupCompare(CLI::App& app);
int RunCompare(const CompareOptions& options);
// The plan compare runs for these options (paths resolved, budget split); InvalidArgument with
// one line for bad input.
Result<run::Plan> MakeComparePlan(platform::Platform& platform, const CompareOptions& options);

}  // namespace durprobe::cli
