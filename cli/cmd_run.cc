#include "cli/cmd_run.h"

#include <memory>

#include "cli/evidence_option.h"
#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "cli/target_paths.h"
#include "run/budget.h"

namespace durprobe::cli {
namespace {

constexpr std::uint64_t kRunBudgetNs = 60'000'000'000;
constexpr std::uint64_t kRunQuickBudgetNs = 5'000'000'000;

}  // namespace

Subcommand SetupRun(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* sub = app.add_subcommand("run", "Full report on each PATH (the default subcommand)");
  sub->add_option("PATH", options->probe.paths, "Directories to measure")->capture_default_str();
  AddProbeOptions(*sub, options->probe);
  AddSqliteMatrixOptions(*sub, options->sqlite);
  AddEvidenceOption(*sub, options->evidence);
  AddCommonOptions(*sub, options->probe.common,
                   "Short run: the same probes and SQLite matrix with a 5 s budget instead of 60 s",
                   "60s");
  return {sub, [options] { return RunRun(*options); }};
}

int RunRun(const RunOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.probe.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<std::uint64_t> budget = BudgetNanos(o.probe.common, kRunBudgetNs, kRunQuickBudgetNs);
  if (!budget.ok()) return UsageError(budget.status().message());
  run::RunSplit split = run::SplitRun(*budget, paths->size());
  // Concurrency is behind --writers: its 16 cells would take half the probes' share (and at
  // --quick's 5 s leave each cell too short for a tail): docs/probes.md "Concurrent syncers".
  run::Plan plan{.command = "run",
                 .options = BudgetOptions(o.probe.common, *budget),
                 .budget_ns = *budget,
                 .paths = *paths,
                 .repeats = o.probe.common.repeat,
                 .run_inspect = true,
                 .run_probes = true,
                 .run_sqlite = true};
  plan.count_flushes = !o.probe.common.no_flush_count;
  if (Status s = LoadEvidence(platform, o.evidence, plan); !s.ok()) return UsageError(s.message());
  Result<probes::ProbePlan> probe_plan = MakeProbePlan(platform, o.probe, split.probe_ns);
  if (!probe_plan.ok()) return UsageError(probe_plan.status().message());
  plan.probes = *probe_plan;
  if (Status s = AddConcurrency(o.probe, split.probe_ns, plan); !s.ok()) {
    return UsageError(s.message());
  }
  Result<sqlite_bench::MatrixPlan> sqlite_plan =
      MakeSqlitePlan(platform, o.sqlite, split.sqlite_ns);
  if (!sqlite_plan.ok()) return UsageError(sqlite_plan.status().message());
  plan.sqlite = *sqlite_plan;
  return ExecutePlan(platform, plan, o.probe.common.out, FailedConfigurations);
}

}  // namespace durprobe::cli
