#include "cli/cmd_run.h"

#include <memory>

namespace durprobe::cli {
namespace {

constexpr std::uint64_t kDefaultBudgetNs = 60'000'000'000;
constexpr std::uint64_t kQuickBudgetNs = 5'000'000'000;

}  // namespace

Subcommand SetupRun(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* sub = app.add_subcommand("run", "Full report on each PATH (the default subcommand)");
  sub->add_option("PATH", options->probe.paths, "Directories to measure (default: .)");
  AddProbeOptions(*sub, options->probe);
  AddSqliteMatrixOptions(*sub, options->sqlite);
  AddCommonOptions(*sub, options->probe.common);
  return {sub, [options] { return RunRun(*options); }};
}

int RunRun(const RunOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.probe.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<std::uint64_t> budget = BudgetNanos(o.probe.common, kDefaultBudgetNs, kQuickBudgetNs);
  if (!budget.ok()) return UsageError(budget.status().message());
  std::uint64_t half = *budget / paths->size() / 2;  // probes, then the SQLite matrix
  Result<probes::ProbePlan> probe_plan = MakeProbePlan(platform, o.probe, half);
  if (!probe_plan.ok()) return UsageError(probe_plan.status().message());
  Result<sqlite_bench::MatrixPlan> sqlite_plan = MakeSqlitePlan(platform, o.sqlite, half);
  if (!sqlite_plan.ok()) return UsageError(sqlite_plan.status().message());
  Plan plan{.command = "run",
            .paths = *paths,
            .verbose = o.probe.common.verbose,
            .run_inspect = true,
            .run_probes = true,
            .probes = *probe_plan,
            .run_sqlite = true,
            .sqlite = *sqlite_plan};
  return ExecuteAndEmit(platform, plan, o.probe.common);
}

}  // namespace durprobe::cli
