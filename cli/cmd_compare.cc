#include "cli/cmd_compare.h"

#include <iostream>
#include <memory>
#include <sstream>

#include "cli/compare_plan.h"
#include "report/compare_reporters.h"
#include "report/json_reporter.h"

namespace durprobe::cli {
namespace {

constexpr std::uint64_t kDefaultBudgetNs = 60'000'000'000;
constexpr std::uint64_t kQuickBudgetNs = 10'000'000'000;

Status Emit(platform::Platform& platform, const report::Comparison& c, const CommonOptions& o) {
  bool json_to_stdout = o.json == "-";
  if (!o.quiet && !json_to_stdout) report::PrintComparison(c, std::cout);
  if (o.json.empty()) return Status::Ok();
  std::string text = report::JsonText(report::ToJson(c));
  if (json_to_stdout) {
    std::cout << text;
    return Status::Ok();
  }
  return WriteWhole(platform, o.json, text);
}

}  // namespace

Subcommand SetupCompare(CLI::App& app) {
  auto options = std::make_shared<CompareOptions>();
  options->probe.paths.clear();
  CLI::App* sub = app.add_subcommand(
      "compare", "Run the same probes on every PATH; ratios against the first, and a verdict");
  sub->add_option("PATH", options->probe.paths,
                  "Two or more directories; the first is the baseline")
      ->required();
  AddProbeOptions(*sub, options->probe);
  sub->add_option("--rounds", options->rounds, "Interleaved rounds over the paths")
      ->check(CLI::Range(1, 100));
  AddSqliteMatrixOptions(*sub, options->matrix);
  sub->add_flag("--no-sqlite", options->no_sqlite,
                "Compare the probes only, without the SQLite matrix");
  AddCommonOptions(*sub, options->probe.common);
  return {sub, [options] { return RunCompare(*options); }};
}

int RunCompare(const CompareOptions& o) {
  platform::Platform& platform = platform::Default();
  if (o.probe.paths.size() < 2) {
    return UsageError("compare needs at least two paths (the first is the baseline)");
  }
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.probe.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<std::uint64_t> budget = BudgetNanos(o.probe.common, kDefaultBudgetNs, kQuickBudgetNs);
  if (!budget.ok()) return UsageError(budget.status().message());

  ComparePlan plan;
  plan.paths = *paths;
  plan.ops = probes::AllFileOps();
  plan.rounds = o.rounds;
  plan.verbose = o.probe.common.verbose;
  std::size_t slices = 0;
  // Half the budget to the probes, half to the SQLite matrix, as `run` does.
  std::uint64_t probe_budget = o.no_sqlite ? *budget : *budget / 2;
  if (!o.no_sqlite) {
    Result<sqlite_bench::MatrixPlan> sqlite_plan =
        MakeSqlitePlan(platform, o.matrix, (*budget - probe_budget) / plan.paths.size());
    if (!sqlite_plan.ok()) return UsageError(sqlite_plan.status().message());
    plan.run_sqlite = true;
    plan.sqlite = *sqlite_plan;
  }
  {
    Result<probes::ProbePlan> probe_plan = MakeProbePlan(platform, o.probe, probe_budget);
    if (!probe_plan.ok()) return UsageError(probe_plan.status().message());
    plan.specs = probe_plan->specs;
    plan.op_options = probe_plan->op_options;
    slices = (plan.specs.size() + plan.ops.size()) * plan.paths.size() * plan.rounds;
    plan.rule = probes::RuleForBudget(probe_budget, slices, o.probe.target_ci_percent / 100.0);
    // Within a round every path gets its full slice: stopping early on one path and not on
    // another would give them different amounts of noise.
    plan.rule.target_ci = 0.0;
    plan.rule.min_ns = plan.rule.max_ns;
  }
  CompareExecution ex = ExecuteCompare(platform, plan);
  if (int code = InterruptedExitCode(); code >= 0) {
    UsageError("interrupted; scratch removed");
    return code;
  }
  if (!ex.status.ok()) return UsageError(ex.status.message());
  Status emitted = Emit(platform, ex.comparison, o.probe.common);
  if (!emitted.ok()) return UsageError("cannot write the report: " + emitted.message());
  return PrintFailures(ex.comparison.targets) > 0 ? kExitFail : kExitOk;
}

}  // namespace durprobe::cli
