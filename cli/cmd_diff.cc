#include "cli/cmd_diff.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/saved_reports.h"
#include "report/diff_analysis.h"
#include "report/diff_console.h"

namespace durprobe::cli {

Subcommand SetupDiff(CLI::App& app) {
  auto options = std::make_shared<DiffOptions>();
  CLI::App* sub = app.add_subcommand("diff", "Explain why two saved reports' commit rates differ");
  sub->add_option("A", options->a, "Report of host (or run) A, from --json")->required();
  sub->add_option("B", options->b, "Report of host (or run) B")->required();
  sub->add_option("--json", options->json, "Write the durprobe.diff/1 document to FILE, or -")
      ->type_name("FILE|-");
  sub->add_flag("--quiet", options->quiet, "Print nothing but errors");
  return {sub, [options] { return RunDiff(*options); }};
}

int RunDiff(const DiffOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<nlohmann::json> a = LoadReport(platform, o.a);
  if (!a.ok()) return UsageError(a.status().message());
  Result<nlohmann::json> b = LoadReport(platform, o.b);
  if (!b.ok()) return UsageError(b.status().message());
  report::Diff diff = report::DiffReports(*a, *b, o.a, o.b);
  if (!o.quiet && o.json != "-") report::PrintDiff(diff, std::cout);
  if (o.json.empty()) return kExitOk;
  std::string text = report::ToJson(diff).dump(2) + "\n";
  if (o.json == "-") {
    std::cout << text;
    return kExitOk;
  }
  Status written = platform.WriteTextFile(o.json, text);
  if (!written.ok()) return UsageError("cannot write the diff: " + written.message());
  return kExitOk;
}

}  // namespace durprobe::cli
