// `durprobe summarize REPORT.json...`: one row per host and path from many saved reports.
#pragma once

#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"

namespace durprobe::cli {

struct SummarizeOptions {
  std::vector<std::string> reports;
  std::string sort = "worst";
  OutputOptions out;  // json and csv: FILE or -; quiet: no table
};

Subcommand SetupSummarize(CLI::App& app);
// 0 when at least one report was read; 2 when none could be (each skipped one gets a warning).
int RunSummarize(const SummarizeOptions& options);

}  // namespace durprobe::cli
