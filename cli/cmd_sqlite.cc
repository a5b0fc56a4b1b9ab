#include "cli/cmd_sqlite.h"

#include <memory>

#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "cli/target_paths.h"
#include "cli/validators.h"
#include "run/command_plans.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::cli {

void AddSqliteMatrixOptions(CLI::App& app, run::SqliteMatrixRequest& o) {
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

int FailedConfigurations(const model::Report& report) { return MeasurementExitCode(report); }

int RunSqlite(const SqliteOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<run::Plan> plan = run::MakeSqliteCommandPlan(platform, *paths, o, o.common);
  if (!plan.ok()) return UsageError(plan.status().message());
  return ExecutePlan(platform, *plan, o.common.out, [](const model::Report& r) {
    int failed = FailedConfigurations(r) != kExitOk || FailedCrashsim(r) > 0;
    return failed ? kExitFail : kExitOk;
  });
}

}  // namespace durprobe::cli
