// `durprobe diff A.json B.json`: why two saved reports' commit rates differ.
#pragma once

#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"

namespace durprobe::cli {

struct DiffOptions {
  std::string a, b;
  std::vector<std::string> paths;  // --path A_PATH --path B_PATH: the pair to diff
  OutputOptions out;
};

Subcommand SetupDiff(CLI::App& app);
int RunDiff(const DiffOptions& options);

}  // namespace durprobe::cli
