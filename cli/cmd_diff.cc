#include "cli/cmd_diff.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/exit_status.h"
#include "cli/saved_reports.h"
#include "explain/diff_analysis.h"
#include "render/console/diff_console.h"
#include "render/json/json_reporter.h"

namespace durprobe::cli {

Subcommand SetupDiff(CLI::App& app) {
  auto options = std::make_shared<DiffOptions>();
  CLI::App* sub = app.add_subcommand("diff", "Explain why two saved reports' commit rates differ");
  // Not required in CLI11's words ("B is required"): RunDiff says what diff needs, with usage.
  sub->add_option("A", options->a,
                  "Report of host (or run) A, from --json; - reads stdin (REQUIRED)");
  sub->add_option("B", options->b, "Report of host (or run) B; - reads stdin (REQUIRED)");
  sub->add_option("--path", options->paths,
                  "The path of A to diff, then the path of B (twice: --path A_PATH --path "
                  "B_PATH); without it, reports with several paths pair them by position")
      ->type_name("PATH")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  AddOutputOptions(*sub, options->out, output::Document::kDiff);
  AddStandardFlags(*sub, options->out);
  return {sub, [options] { return RunDiff(*options); }};
}

int RunDiff(const DiffOptions& o) {
  platform::Platform& platform = platform::Default();
  if (o.a.empty() || o.b.empty()) {
    return UsageError(fmt::format(
        "diff needs two saved reports and got {}: durprobe diff A.json B.json (each from "
        "durprobe run --json FILE on its host)",
        o.a.empty() ? "none" : "one (" + o.a + ")"));
  }
  if (o.a == "-" && o.b == "-") return UsageError("only one of A and B can be - (standard input)");
  if (!o.paths.empty() && o.paths.size() != 2) {
    return UsageError("--path comes twice: --path A_PATH --path B_PATH");
  }
  std::vector<output::Destination> files = Destinations(o.out);
  if (Status ok = output::CheckDestinations(platform, files); !ok.ok()) {
    return UsageError(ok.message());
  }
  Result<model::Report> a = LoadReport(platform, o.a);
  if (!a.ok()) return LoadFailure(a.status());
  Result<model::Report> b = LoadReport(platform, o.b);
  if (!b.ok()) return LoadFailure(b.status());
  auto name = [](const std::string& path) { return path == "-" ? "- (standard input)" : path; };
  explain::PathChoice choice;
  if (o.paths.size() == 2) choice = {o.paths[0], o.paths[1]};
  Result<explain::Diff> diffed = explain::DiffReports(*a, *b, name(o.a), name(o.b), choice);
  if (!diffed.ok()) return UsageError(diffed.status().message());
  const explain::Diff& diff = *diffed;
  if (!o.out.quiet && !output::UsesStdout(files)) {
    // A stdout that refuses the console copy fails the command at its end (FinishStandardOutput).
    (void)output::WriteDestinations(platform, {{output::Format::kConsole, "-"}}, diff, std::cout);
  }
  Status written = output::WriteDestinations(platform, files, diff, std::cout);
  if (!written.ok()) return UsageError("cannot write the diff: " + written.message());
  return kExitOk;
}

}  // namespace durprobe::cli
