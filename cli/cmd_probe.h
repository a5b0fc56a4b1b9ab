// `durprobe probe PATH...`: the raw sync primitives. Also the probe options `run` shares.
#pragma once

#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"
#include "cli/writers_options.h"
#include "run/requests.h"

namespace durprobe::cli {

// The probe request (run/requests.h), with the paths and the common options.
struct ProbeOptions : run::ProbeRequest {
  std::vector<std::string> paths{"."};
  CommonOptions common;
};

// Adds --primitives, --patterns, --sizes, --file-size, --ci and --writers to app.
void AddProbeOptions(CLI::App& app, run::ProbeRequest& options);

Subcommand SetupProbe(CLI::App& app);
int RunProbe(const ProbeOptions& options);

}  // namespace durprobe::cli
