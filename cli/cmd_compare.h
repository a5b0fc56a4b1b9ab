// `durprobe compare PATH PATH...`: the same probes on every path, side by side, with ratios
// against the first path and a verdict on where each path's penalty comes from.
#pragma once

#include <string>
#include <vector>

#include "cli/cmd_probe.h"
#include "cli/cmd_sqlite.h"
#include "run/requests.h"

namespace durprobe::cli {

// The compare request (run/requests.h), with the paths, the common options and --try.
struct CompareOptions : run::CompareRequest {
  std::vector<std::string> paths;
  CommonOptions common;
  bool try_leading = false;  // --try: run the leading cause's test after the comparison
};

Subcommand SetupCompare(CLI::App& app);
int RunCompare(const CompareOptions& options);

}  // namespace durprobe::cli
