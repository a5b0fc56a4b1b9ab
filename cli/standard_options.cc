#include "cli/standard_options.h"

#include "cli/validators.h"
#include "cli/version.h"
#include "output/formats.h"
#include "text/units.h"

namespace durprobe::cli {

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

void AddOutputOptions(CLI::App& app, OutputOptions& o, output::Document document,
                      const std::vector<OptionWording>& wording, bool rules) {
  for (output::Format f : output::FormatsWriting(document)) {
    const output::FormatRow& row = output::RowOf(f);
    if (row.rules_only && !rules) continue;
    std::string name = output::OptionOf(f);
    if (!row.short_option.empty()) name = std::string(row.short_option) + "," + name;
    std::string help(row.help), type_name = "FILE";
    for (const OptionWording& w : wording) {
      if (w.format == f) {
        help = w.help;
        type_name = w.type_name;
      }
    }
    app.add_option(name, o.files[static_cast<std::size_t>(f)], help)->type_name(type_name);
  }
}

void AddCommonOptions(CLI::App& app, CommonOptions& o, const std::string& quick_help,
                      const std::string& default_budget, output::Document document, bool rules) {
  app.add_flag("--quick", o.quick, quick_help);
  app.add_option("--budget", o.budget,
                 "Total time to spend measuring, over all paths (500ms, 30s, 2m); default " +
                     default_budget)
      ->type_name("DURATION")
      ->check(Duration());
  // hyperfine runs each command's every run in full and fio gives each job its runtime: a
  // repeat is a run of its own, so the budget is each repeat's (docs/accuracy.md "Repeats").
  app.add_option("--repeat", o.repeat,
                 "Run the measurement N times (1..100); each figure is then the median of the "
                 "runs' with their range, and --budget is each run's")
      ->type_name("N")
      ->check(InRange(1, 100));
  app.add_flag("--no-flush-count", o.no_flush_count,
               "Count no device flushes: no control and idle slices between the timed ones, no "
               "flush/op, and no device_flushes layer in the durability verdict");
  AddDryRun(app, o.out);
  AddOutputOptions(app, o.out, document, {}, rules);
  AddStandardFlags(app, o.out);
}

std::vector<output::Destination> Destinations(const OutputOptions& o) {
  std::vector<output::Destination> out;
  for (const output::FormatRow& row : output::FormatTable()) {
    const std::string& path = o.files[static_cast<std::size_t>(row.format)];
    if (!path.empty()) out.push_back({row.format, path});
  }
  return out;
}

CLI::Option* AddListOption(CLI::App& app, const std::string& name, std::vector<std::string>& into,
                           const std::string& help) {
  return app.add_option(name, into, help)
      ->delimiter(',')
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

}  // namespace durprobe::cli
