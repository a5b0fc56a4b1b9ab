#include "cli/cmd_sqlite.h"

#include <fmt/format.h>

#include <memory>

#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "cli/target_paths.h"
#include "cli/validators.h"
#include "run/budget.h"
#include "sqlite_bench/build_info.h"
#include "text/units.h"

namespace durprobe::cli {
namespace {

constexpr std::uint64_t kSqliteBudgetNs = 30'000'000'000;
constexpr std::uint64_t kSqliteQuickBudgetNs = 10'000'000'000;
constexpr std::uint64_t kMaxPayload = 1u << 20;

}  // namespace

void AddSqliteMatrixOptions(CLI::App& app, SqliteMatrixOptions& o) {
  AddListOption(app, "--journal-modes", o.journal_modes,
                "Journal modes, comma-separated (default delete,wal)")
      ->transform(OneOf(KeysOf(sqlite_bench::JournalModeNames()), "journal mode"));
  AddListOption(app, "--synchronous", o.synchronous,
                "Synchronous levels, comma-separated (default full,normal,off)")
      ->transform(OneOf(KeysOf(sqlite_bench::SynchronousNames()), "synchronous level"));
  app.add_flag("--all", o.all, "The whole matrix: every journal mode x every synchronous level");
  AddListOption(app, "--batch", o.batches,
                "Rows per commit, comma-separated, e.g. 1,10,100,1000 (1: autocommit INSERT)")
      ->capture_default_str()
      ->check(InRange(1, 1000000));
  AddListOption(app, "--statement", o.statements,
                "reused (one prepared INSERT) and/or per_row (prepared for every row)")
      ->capture_default_str()
      ->transform(OneOf(KeysOf(sqlite_bench::StatementModeNames()), "statement mode"));
  app.add_option("--payload", o.payload, "Payload bytes per row")
      ->capture_default_str()
      ->type_name("SIZE")
      ->check(Size());
  app.add_option("--repetitions", o.repetitions, "Timed repetitions per configuration (median)")
      ->capture_default_str()
      ->check(InRange(1, 1000));
  app.add_option("--commits", o.commits,
                 "Exactly N commits per repetition instead of filling the budget (0: by budget)")
      ->capture_default_str()
      ->check(InRange(0, 100000000));
  app.add_option("--warmup", o.warmup, "Untimed commits before the repetitions")
      ->capture_default_str()
      ->check(InRange(0, 100000000));
}

Result<sqlite_bench::MatrixPlan> MakeSqlitePlan(platform::Platform& platform,
                                                const SqliteMatrixOptions& o,
                                                std::uint64_t budget_ns) {
  sqlite_bench::MatrixSelection sel;
  for (const std::string& j : o.journal_modes)
    sel.journals.push_back(sqlite_bench::JournalModeNames().at(j));
  for (const std::string& s : o.synchronous)
    sel.syncs.push_back(sqlite_bench::SynchronousNames().at(s));
  sel.all = o.all;
  sel.batches.clear();
  for (const std::string& b : o.batches)
    sel.batches.push_back(static_cast<std::uint32_t>(std::stoul(b)));
  sel.statements.clear();
  for (const std::string& s : o.statements)
    sel.statements.push_back(sqlite_bench::StatementModeNames().at(s));
  Result<std::uint64_t> payload = report::ParseSize(o.payload);
  if (!payload.ok()) return payload.status();
  if (*payload == 0 || *payload > kMaxPayload) {
    return Status::InvalidArgument(
        fmt::format("--payload must be between 1 byte and 1 MiB, not {}", o.payload));
  }
  sel.payload_bytes = static_cast<std::uint32_t>(*payload);
  // PRAGMA fullfsync only means something where the OS has F_FULLFSYNC (macOS).
  sel.fullfsync_dimension = platform.SupportsSync(platform::SyncCall::kFullFsync).ok();
  sqlite_bench::MatrixPlan plan;
  plan.configs = sqlite_bench::ExpandMatrix(sel);
  plan.options.budget_ns = sqlite_bench::PerConfigBudget(budget_ns, plan.configs.size());
  plan.options.repetitions = o.repetitions;
  plan.options.fixed_commits = o.commits;
  plan.options.warmup_commits = o.warmup;
  return plan;
}

probes::ProbePlan CorrelationProbePlan(platform::Platform& platform, std::uint64_t budget_ns) {
  probes::ProbePlan plan;
  for (bool fullfsync : {false, true}) {
    if (fullfsync && !platform.SupportsSync(platform::SyncCall::kFullFsync).ok()) continue;
    probes::Primitive p =
        probes::PrimitiveNames().at(sqlite_bench::SqliteSyncPrimitive(platform, fullfsync));
    plan.specs.push_back({p, probes::Pattern::kOverwrite, 4096});
    plan.specs.push_back({p, probes::Pattern::kAppend, 4096});
  }
  plan.specs.push_back({probes::Primitive::kDirFsync, probes::Pattern::kCreate, 0});
  plan.rule = probes::RuleForBudget(budget_ns, plan.specs.size(), 0.05);
  return plan;
}

Subcommand SetupSqlite(CLI::App& app) {
  auto options = std::make_shared<SqliteOptions>();
  CLI::App* sub =
      app.add_subcommand("sqlite", "SQLite commit matrix on each PATH, explained by the probes");
  sub->add_option("PATH", options->paths, "Directories to measure")->capture_default_str();
  AddSqliteMatrixOptions(*sub, options->matrix);
  sub->add_flag("--no-probes", options->no_probes,
                "Skip the correlation probes (no predicted/explained columns)");
  sub->add_flag("--crashsim", options->crashsim,
                "Also simulate power cuts for each configuration (durprobe crashsim)");
  sub->add_option("--crashsim-trials", options->crashsim_options.trials,
                  "Crash images per configuration with --crashsim (default 100)")
      ->check(InRange(1, 1000000));
  AddSqliteWorkloadOptions(*sub, options->workloads);
  AddCommonOptions(*sub, options->common,
                   "Short run: the same configurations with a 10 s budget instead of 30 s", "30s");
  return {sub, [options] { return RunSqlite(*options); }};
}

int FailedConfigurations(const report::Report& report) { return MeasurementExitCode(report); }

int RunSqlite(const SqliteOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<std::uint64_t> budget = BudgetNanos(o.common, kSqliteBudgetNs, kSqliteQuickBudgetNs);
  if (!budget.ok()) return UsageError(budget.status().message());
  // With --workloads the matrix (and its probes) runs only when "commits" is listed.
  bool matrix_runs = RunsCommitMatrix(o.workloads);
  Result<sqlite_bench::WorkloadPlan> workloads = MakeWorkloadPlan(o.workloads, 0);
  if (!workloads.ok()) return UsageError(workloads.status().message());
  bool workloads_run = !workloads->workloads.empty();
  bool probes_run = matrix_runs && !o.no_probes;
  run::SqliteSplit split =
      run::SplitSqlite(*budget, paths->size(), matrix_runs, probes_run, workloads_run);
  workloads->options.budget_ns = split.workload_ns;
  Result<sqlite_bench::MatrixPlan> matrix = MakeSqlitePlan(platform, o.matrix, split.matrix_ns);
  if (!matrix.ok()) return UsageError(matrix.status().message());
  run::Plan plan{.command = "sqlite",
                 .options = BudgetOptions(o.common, *budget),
                 .budget_ns = *budget,
                 .paths = *paths,
                 .repeats = o.common.repeat,
                 .run_inspect = true,
                 .run_probes = probes_run,
                 .probes = CorrelationProbePlan(platform, split.probe_ns),
                 .run_sqlite = matrix_runs,
                 .sqlite = *matrix,
                 .run_workloads = workloads_run,
                 .workloads = *workloads};
  plan.count_flushes = !o.common.no_flush_count;
  plan.run_crashsim = o.crashsim && matrix_runs;
  plan.crashsim = MakeCrashsimPlan(o.crashsim_options, CrashsimConfigsFor(matrix->configs));
  return ExecutePlan(platform, plan, o.common.out, [](const report::Report& r) {
    int failed = FailedConfigurations(r) != kExitOk || FailedCrashsim(r) > 0;
    return failed ? kExitFail : kExitOk;
  });
}

}  // namespace durprobe::cli
