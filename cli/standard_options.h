// The options commands share: the report destinations (-j/--json, --csv, ... FILE or -),
// -q/-v/-V, --dry-run, --quick and --budget, and comma-separated list options.
#pragma once

#include <CLI/CLI.hpp>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "output/output.h"
#include "platform/status.h"
#include "run/requests.h"

namespace durprobe::cli {

// The report files a command can write, one option per format.
struct OutputOptions {
  // By format (output/formats.h): "" none, a file, or "-". The console's stays "": it has no
  // option.
  std::array<std::string, output::kFormatCount> files;
  bool quiet = false;
  bool verbose = false;
  bool wide = false;     // every console column, whatever the terminal's width (cli/app.cc)
  bool dry_run = false;  // print the plan (context.options) as JSON and measure nothing
};

// --quick, --budget, --repeat, --no-flush-count (the request run/ builds a plan from), and the
// report files.
struct CommonOptions : run::BudgetRequest {
  OutputOptions out;
};

// -q/--quiet, -v/--verbose and -V/--version: every command has them.
void AddStandardFlags(CLI::App& app, OutputOptions& options);
// --dry-run: print the plan as JSON and measure nothing.
void AddDryRun(CLI::App& app, OutputOptions& options);
// A command's own words for a format's option, where its document reads differently from a
// run's report (summarize's rows, report's page).
struct OptionWording {
  output::Format format;
  std::string help;
  std::string type_name = "FILE";
};
// One option per format that renders the document (-j/--json FILE, --csv FILE, ...), in the
// format table's order, with the table's help unless wording gives the command's own; a format
// that writes only check rules (--junit) only where the command evaluates rules.
void AddOutputOptions(CLI::App& app, OutputOptions& options, output::Document document,
                      const std::vector<OptionWording>& wording = {}, bool rules = false);
// --quick (described for this command) and --budget (with this command's default), --dry-run,
// the output options of the document the command writes (a run's report, or compare's
// comparison; rules: check's) and standard flags.
void AddCommonOptions(CLI::App& app, CommonOptions& options, const std::string& quick_help,
                      const std::string& default_budget,
                      output::Document document = output::Document::kReport, bool rules = false);

// The destinations the options name, in the format table's order.
std::vector<output::Destination> Destinations(const OutputOptions& options);

// A comma-separated list option that takes one argument per use, so a following PATH is not
// swallowed into the list.
CLI::Option* AddListOption(CLI::App& app, const std::string& name, std::vector<std::string>& into,
                           const std::string& help);

}  // namespace durprobe::cli
