// `durprobe report REPORT.json... --html FILE`: renders saved reports (from --json, possibly made
// on other hosts) into one self-contained HTML page.
#pragma once

#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"

namespace durprobe::cli {

struct ReportOptions {
  std::vector<std::string> reports;
  OutputOptions out;  // html: a file, or "-" for stdout
};

Subcommand SetupReport(CLI::App& app);
int RunReport(const ReportOptions& options);

}  // namespace durprobe::cli
