#include "cli/cmd_sqlite.h"

#include <fmt/format.h>

#include <memory>

#include "report/units.h"
#include "sqlite_bench/build_info.h"

namespace durprobe::cli {
namespace {

constexpr std::uint64_t kDefaultBudgetNs = 30'000'000'000;
constexpr std::uint64_t kQuickBudgetNs = 10'000'000'000;
constexpr double kProbeShare = 0.15;  // of the per-path budget, for the correlation probes
constexpr std::uint64_t kMaxPayload = 1u << 20;

// CheckedTransformer (case-insensitive) with a one-line error that lists the valid names.
template <typename Enum>
CLI::Validator OneOf(const std::map<std::string, Enum>& names) {
  std::map<std::string, std::string> m;
  std::string list;
  for (const auto& [name, value] : names) {
    m.emplace(name, name);
    list += (list.empty() ? "" : ", ") + name;
  }
  CLI::Validator checked = CLI::CheckedTransformer(m, CLI::ignore_case);
  return CLI::Validator(
      [checked, list](std::string& value) mutable {
        std::string given = value;
        return checked(value).empty() ? std::string()
                                      : fmt::format("'{}' is not one of {}", given, list);
      },
      "NAME");
}

}  // namespace

void AddSqliteMatrixOptions(CLI::App& app, SqliteMatrixOptions& o) {
  app.add_option("--journal-modes", o.journal_modes,
                 "Journal modes (comma-separated; default delete,wal)")
      ->delimiter(',')
      ->transform(OneOf(sqlite_bench::JournalModeNames()));
  app.add_option("--synchronous", o.synchronous,
                 "Synchronous levels (comma-separated; default full,normal,off)")
      ->delimiter(',')
      ->transform(OneOf(sqlite_bench::SynchronousNames()));
  app.add_flag("--all", o.all, "The whole matrix: every journal mode x every synchronous level");
  app.add_option("--batch", o.batches, "Rows per commit, e.g. 1,10,100,1000 (1: autocommit INSERT)")
      ->delimiter(',')
      ->check(CLI::Range(1u, 1000000u));
  app.add_option("--statement", o.statements,
                 "reused (one prepared INSERT) and/or per_row (prepared for every row)")
      ->delimiter(',')
      ->transform(OneOf(sqlite_bench::StatementModeNames()));
  app.add_option("--payload", o.payload, "Payload bytes per row (default 100)")
      ->type_name("SIZE")
      ->check(Size());
  app.add_option("--repetitions", o.repetitions, "Timed repetitions per configuration (median)")
      ->check(CLI::Range(1u, 1000u));
  app.add_option("--commits", o.commits,
                 "Exactly N commits per repetition instead of filling the budget")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100'000'000}));
  app.add_option("--warmup", o.warmup, "Untimed commits before the repetitions (default 20)");
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
  sel.batches = o.batches;
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
  sub->add_option("PATH", options->paths, "Directories to measure (default: .)");
  AddSqliteMatrixOptions(*sub, options->matrix);
  sub->add_flag("--no-probes", options->no_probes,
                "Skip the correlation probes (no predicted/explained columns)");
  AddSqliteWorkloadOptions(*sub, options->workloads);
  AddCommonOptions(*sub, options->common);
  return {sub, [options] { return RunSqlite(*options); }};
}

int RunSqlite(const SqliteOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<std::uint64_t> budget = BudgetNanos(o.common, kDefaultBudgetNs, kQuickBudgetNs);
  if (!budget.ok()) return UsageError(budget.status().message());
  std::uint64_t per_path = *budget / paths->size();
  // With --workloads the matrix (and its probes) runs only when "commits" is listed; then the
  // two halves share the budget.
  bool matrix_runs = RunsCommitMatrix(o.workloads);
  Result<sqlite_bench::WorkloadPlan> workloads = MakeWorkloadPlan(o.workloads, 0);
  if (!workloads.ok()) return UsageError(workloads.status().message());
  bool workloads_run = !workloads->workloads.empty();
  std::uint64_t workload_ns = !workloads_run ? 0 : matrix_runs ? per_path / 2 : per_path;
  workloads->options.budget_ns = workload_ns;
  per_path -= workload_ns;
  bool probes_run = matrix_runs && !o.no_probes;
  std::uint64_t probe_ns =
      probes_run ? static_cast<std::uint64_t>(double(per_path) * kProbeShare) : 0;
  Result<sqlite_bench::MatrixPlan> matrix = MakeSqlitePlan(platform, o.matrix, per_path - probe_ns);
  if (!matrix.ok()) return UsageError(matrix.status().message());
  Plan plan{.command = "sqlite",
            .paths = *paths,
            .run_probes = probes_run,
            .probes = CorrelationProbePlan(platform, probe_ns),
            .run_sqlite = matrix_runs,
            .sqlite = *matrix,
            .run_workloads = workloads_run,
            .workloads = *workloads};
  Execution ex = Execute(platform, plan);
  if (int code = InterruptedExitCode(); code >= 0) {
    UsageError(ex.status.ok() ? "interrupted" : ex.status.message() + "; scratch removed");
    return code;
  }
  if (!ex.status.ok()) return UsageError(ex.status.message());
  Status emitted = EmitReport(platform, ex.report, o.common);
  if (!emitted.ok()) return UsageError("cannot write the report: " + emitted.message());
  return PrintFailures(ex.report.targets) > 0 ? kExitFail : kExitOk;
}

}  // namespace durprobe::cli
