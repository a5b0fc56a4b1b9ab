#include "cli/cmd_compare.h"

#include <memory>

#include "cli/compare_try.h"
#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "cli/target_paths.h"
#include "cli/validators.h"
#include "run/budget.h"

namespace durprobe::cli {
namespace {

constexpr std::uint64_t kCompareBudgetNs = 60'000'000'000;
constexpr std::uint64_t kCompareQuickBudgetNs = 10'000'000'000;

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
      ->capture_default_str()
      ->check(InRange(1, 100));
  AddSqliteMatrixOptions(*sub, options->matrix);
  sub->add_flag("--no-sqlite", options->no_sqlite,
                "Compare the probes only, without the SQLite matrix");
  sub->add_flag("--try", options->try_leading,
                "Then run the test of the leading cause (a layer against the filesystem under "
                "it, a nodatacow directory, WAL against DELETE) and print its measured effect");
  AddCommonOptions(*sub, options->probe.common,
                   "Short run: the same probes and matrix with a 10 s budget instead of 60 s",
                   "60s", report::Document::kComparison);
  return {sub, [options] { return RunCompare(*options); }};
}

Result<run::Plan> MakeComparePlan(platform::Platform& platform, const CompareOptions& o) {
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.probe.paths);
  if (!paths.ok()) return paths.status();
  Result<std::uint64_t> budget =
      BudgetNanos(o.probe.common, kCompareBudgetNs, kCompareQuickBudgetNs);
  if (!budget.ok()) return budget.status();

  run::Plan plan;
  plan.command = "compare";
  plan.options = BudgetOptions(o.probe.common, *budget);
  plan.budget_ns = *budget;
  plan.repeats = o.probe.common.repeat;
  plan.count_flushes = !o.probe.common.no_flush_count;
  plan.paths = *paths;
  plan.schedule = run::Schedule::kInterleaved;
  plan.run_inspect = true;
  plan.run_probes = true;
  plan.ops = probes::AllFileOps();
  Result<probes::ProbePlan> probe_plan = MakeProbePlan(platform, o.probe, *budget);
  if (!probe_plan.ok()) return probe_plan.status();
  run::CompareSplit split = run::SplitCompare(*budget, paths->size(), probe_plan->specs.size(),
                                              plan.ops.size(), o.rounds, !o.no_sqlite);
  plan.rounds = split.rounds;
  // With --writers, the concurrency cells (each run on every path in turn) take a slice each,
  // as long as each probe's or op's slice on a path.
  if (o.probe.writers.asked()) {
    const std::uint64_t per_path = run::PerPath(split.probe_ns, paths->size());
    const std::size_t cells = CellCount(o.probe.writers);
    const std::uint64_t share =
        run::ConcurrencyShare(per_path, cells, split.slices / paths->size());
    Result<run::ConcurrencyPlan> c =
        MakeConcurrencyPlan(o.probe.writers, share, probe_plan->op_options.file_size);
    if (!c.ok()) return Status::InvalidArgument(c.status().message());
    plan.run_concurrency = true;
    plan.concurrency = *c;
    split.probe_ns -= share * paths->size();
  }
  plan.probes = *probe_plan;
  plan.probes.rule =
      probes::RuleForBudget(split.probe_ns, split.slices, o.probe.target_ci_percent / 100.0);
  // Within a round every path gets its full slice: stopping early on one path and not on
  // another would give them different amounts of noise.
  plan.probes.rule.target_ci = 0.0;
  plan.probes.rule.min_ns = plan.probes.rule.max_ns;
  if (!o.no_sqlite) {
    Result<sqlite_bench::MatrixPlan> sqlite_plan =
        MakeSqlitePlan(platform, o.matrix, split.sqlite_ns);
    if (!sqlite_plan.ok()) return sqlite_plan.status();
    plan.run_sqlite = true;
    plan.sqlite = *sqlite_plan;
  }
  return plan;
}

int RunCompare(const CompareOptions& o) {
  platform::Platform& platform = platform::Default();
  if (o.probe.paths.size() < 2) {
    return UsageError("compare needs at least two paths (the first is the baseline)");
  }
  Result<run::Plan> plan = MakeComparePlan(platform, o);
  if (!plan.ok()) return UsageError(plan.status().message());
  if (!o.try_leading) return ExecuteComparePlan(platform, *plan, o.probe.common.out);
  return ExecuteComparePlan(
      platform, *plan, o.probe.common.out,
      [&platform, &o](const report::Comparison& c) { return TryLeadingCause(platform, o, c); });
}

}  // namespace durprobe::cli
