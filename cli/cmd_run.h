// `durprobe [run] [PATH...]`: the full report: everything durprobe can measure on each path.
#pragma once

#include "cli/cmd_probe.h"
#include "cli/cmd_sqlite.h"

namespace durprobe::cli {

struct RunOptions {
  ProbeOptions probe;  // paths, probe selection and common options
  run::SqliteMatrixRequest sqlite;
  std::string evidence;  // --evidence
};

Subcommand SetupRun(CLI::App& app);
int RunRun(const RunOptions& options);

}  // namespace durprobe::cli
