// `durprobe compare PATH PATH...`: the same probes on every path, side by side, with ratios
// against the first path and a verdict on where each path's penalty comes from.
#pragma once

#include "cli/cmd_probe.h"
#include "cli/cmd_sqlite.h"

namespace durprobe::cli {

struct CompareOptions {
  ProbeOptions probe;  // paths, probe selection and common options
  SqliteMatrixOptions matrix;
  bool no_sqlite = false;
  int rounds = 3;
};

Subcommand SetupCompare(CLI::App& app);
int RunCompare(const CompareOptions& options);

}  // namespace durprobe::cli
