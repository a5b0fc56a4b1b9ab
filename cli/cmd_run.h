// `durprobe [run] [PATH...]`: the full report: everything durprobe can measure on each path.
#pragma once

#include "cli/cmd_probe.h"

namespace durprobe::cli {

struct RunOptions {
  ProbeOptions probe;  // paths, probe selection and common options
};

Subcommand SetupRun(CLI::App& app);
int RunRun(const RunOptions& options);

}  // namespace durprobe::cli
