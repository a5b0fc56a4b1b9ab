#include "cli/standard_options.h"

#include "cli/validators.h"
#include "cli/version.h"
#include "output/reporter_factory.h"
#include "render/reporter.h"
#include "text/units.h"

namespace durprobe::cli {
namespace {

const char* FormatHelp(report::Format f) {
  switch (f) {
    case report::Format::kJson:
      return "Write the JSON report to FILE, or - for stdout";
    case report::Format::kCsv:
      return "Write a flat CSV table (probes and SQLite rows) to FILE or -";
    case report::Format::kMarkdown:
      return "Write Markdown tables (for a ticket) to FILE or -";
    case report::Format::kHtml:
      return "Write a self-contained HTML page with plots to FILE";
    case report::Format::kJunit:
      return "Write JUnit XML (a testcase per rule) to FILE or -";
    case report::Format::kPrometheus:
      return "Write a Prometheus textfile to FILE or -";
    case report::Format::kConsole:
      return "";
  }
  return "";
}

std::string* FieldOf(OutputOptions& o, report::Format f) {
  switch (f) {
    case report::Format::kJson:
      return &o.json;
    case report::Format::kCsv:
      return &o.csv;
    case report::Format::kMarkdown:
      return &o.markdown;
    case report::Format::kHtml:
      return &o.html;
    case report::Format::kJunit:
      return &o.junit;
    case report::Format::kPrometheus:
      return &o.prometheus;
    case report::Format::kConsole:
      return nullptr;
  }
  return nullptr;
}

}  // namespace

void AddStandardFlags(CLI::App& app, OutputOptions& o) {
  app.add_flag("-q,--quiet", o.quiet, "Print nothing but errors");
  app.add_flag("-v,--verbose", o.verbose, "Print a line per step on stderr");
  app.add_flag("--wide", o.wide,
               "Print every table column however wide the terminal (piped output always does)");
  app.add_flag_callback(
      "-V,--version", [] { throw CLI::CallForVersion(VersionText(), 0); },
      "Print the version and exit");
}

void AddDryRun(CLI::App& app, OutputOptions& o) {
  app.add_flag("--dry-run", o.dry_run,
               "Print what would be measured (paths, probes, configurations, budget) as JSON, "
               "and measure nothing");
}

void AddOutputOptions(CLI::App& app, OutputOptions& o, const std::vector<report::Format>& formats) {
  for (report::Format f : formats) {
    std::string name = f == report::Format::kJson ? "-j,--json" : report::OptionOf(f);
    app.add_option(name, *FieldOf(o, f), FormatHelp(f))->type_name("FILE");
  }
}

std::vector<report::Format> ReportFormats() {
  std::vector<report::Format> out;
  for (report::Format f :
       {report::Format::kJson, report::Format::kCsv, report::Format::kMarkdown,
        report::Format::kHtml, report::Format::kJunit, report::Format::kPrometheus}) {
    if (report::MakeReporter(f) != nullptr) out.push_back(f);
  }
  return out;
}

void AddCommonOptions(CLI::App& app, CommonOptions& o, const std::string& quick_help,
                      const std::string& default_budget) {
  app.add_flag("--quick", o.quick, quick_help);
  app.add_option("--budget", o.budget,
                 "Total time to spend measuring, over all paths (500ms, 30s, 2m); default " +
                     default_budget)
      ->type_name("DURATION")
      ->check(Duration());
  AddDryRun(app, o.out);
  AddOutputOptions(app, o.out, ReportFormats());
  AddStandardFlags(app, o.out);
}

std::vector<report::Destination> Destinations(const OutputOptions& o) {
  std::vector<report::Destination> out;
  OutputOptions copy = o;
  for (report::Format f :
       {report::Format::kJson, report::Format::kCsv, report::Format::kMarkdown,
        report::Format::kHtml, report::Format::kJunit, report::Format::kPrometheus}) {
    const std::string& path = *FieldOf(copy, f);
    if (!path.empty()) out.push_back({f, path});
  }
  return out;
}

Result<std::uint64_t> BudgetNanos(const CommonOptions& o, std::uint64_t default_ns,
                                  std::uint64_t quick_ns) {
  if (!o.budget.empty()) return report::ParseDurationNanos(o.budget);
  return o.quick ? quick_ns : default_ns;
}

CLI::Option* AddListOption(CLI::App& app, const std::string& name, std::vector<std::string>& into,
                           const std::string& help) {
  return app.add_option(name, into, help)
      ->delimiter(',')
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

}  // namespace durprobe::cli
