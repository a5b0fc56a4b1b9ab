// `durprobe clean PATH...`: remove scratch directories left by killed runs (only durprobe's own).
#pragma once

#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"

namespace durprobe::cli {

struct CleanOptions {
  std::vector<std::string> paths;
  OutputOptions out;  // only its -q/-v flags
};

Subcommand SetupClean(CLI::App& app);
int RunClean(const CleanOptions& options);

}  // namespace durprobe::cli
