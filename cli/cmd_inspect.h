// `durprobe inspect PATH...`: what each path really is (mount, filesystem, options, device,
// container) and the configurations that change what a sync means. Writes nothing to PATH.
#pragma once

#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"

namespace durprobe::cli {

struct InspectOptions {
  std::vector<std::string> paths;
  OutputOptions out;
  std::string evidence;  // --evidence
};

Subcommand SetupInspect(CLI::App& app);
int RunInspect(const InspectOptions& options);

}  // namespace durprobe::cli
