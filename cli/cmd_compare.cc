#include "cli/cmd_compare.h"

#include <memory>

#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "cli/target_paths.h"
#include "cli/validators.h"
#include "run/command_plans.h"
#include "run/compare_try.h"

namespace durprobe::cli {

Subcommand SetupCompare(CLI::App& app) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* sub = app.add_subcommand(
      "compare", "Run the same probes on every PATH; ratios against the first, and a verdict");
  sub->add_option("PATH", options->paths, "Two or more directories; the first is the baseline")
      ->required();
  AddProbeOptions(*sub, options->probe);
  sub->add_option("--rounds", options->rounds, "Interleaved rounds over the paths")
      ->capture_default_str()
      ->check(InRange(1, 100));
  AddSqliteMatrixOptions(*sub, options->matrix);
  sub->add_flag("--no-sqlite", options->no_sqlite,
                "Compare the probes only, without the SQLite matrix");
  sub->add_flag("--try", options->try_leading,
                "Then run the test of the leading cause (a layer against the filesystem under "
                "it, a nodatacow directory, WAL against DELETE) and print its measured effect");
  AddCommonOptions(*sub, options->common,
                   "Short run: the same probes and matrix with a 10 s budget instead of 60 s",
                   "60s", output::Document::kComparison);
  return {sub, [options] { return RunCompare(*options); }};
}

int RunCompare(const CompareOptions& o) {
  platform::Platform& platform = platform::Default();
  if (o.paths.size() < 2) {
    return UsageError("compare needs at least two paths (the first is the baseline)");
  }
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<run::Plan> plan = run::MakeComparePlan(platform, *paths, o, o.common);
  if (!plan.ok()) return UsageError(plan.status().message());
  if (!o.try_leading) return ExecuteComparePlan(platform, *plan, o.common.out);
  return ExecuteComparePlan(platform, *plan, o.common.out,
                            [&platform, &o](const explain::Comparison& c) {
                              return run::TryLeadingCause(platform, o, o.common, c);
                            });
}

}  // namespace durprobe::cli
