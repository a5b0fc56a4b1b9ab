#include "cli/cmd_crashsim.h"

#include <fmt/format.h>

#include <memory>

#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "cli/target_paths.h"
#include "cli/validators.h"
#include "run/command_plans.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::cli {
namespace {

const std::vector<std::string>& DeviceNames() {
  static const auto* names = new std::vector<std::string>{"atomic_sectors", "ordered_metadata",
                                                          "safe_append", "sequential"};
  return *names;
}

}  // namespace

void AddCrashsimOptions(CLI::App& app, run::CrashsimRequest& o) {
  app.add_option("--trials", o.trials, "Crash images per configuration (default 100)")
      ->check(InRange(1, 1000000));
  app.add_option("--seed", o.seed, "Seed of the crash points and images (default 1)");
  app.add_option("--commits", o.commits, "Commits the workload attempts per trial (default 12)")
      ->check(InRange(1, 10000));
  AddListOption(app, "--device", o.device,
                "Simulated device guarantees (default none): atomic_sectors, ordered_metadata, "
                "safe_append, sequential")
      ->transform(OneOf(DeviceNames(), "device property"));
  app.add_flag("--no-psow", o.no_psow,
               "Tell SQLite the storage lacks powersafe overwrite (as the psow=0 URI parameter)");
}

int FailedCrashsim(const model::Report& report) {
  int failed = 0;
  for (const model::Target& t : report.targets) {
    for (const sqlite_bench::CrashsimResult& r : t.crashsim) {
      if (r.outcome != probes::Outcome::kError) continue;
      PrintError(fmt::format("{}: crashsim {}/{}: {}", t.path,
                             sqlite_bench::NameOf(r.config.journal),
                             sqlite_bench::NameOf(r.config.sync), r.reason));
      ++failed;
    }
  }
  return failed;
}

Subcommand SetupCrashsim(CLI::App& app) {
  auto options = std::make_shared<CrashsimCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "crashsim", "What a power cut loses, per journal_mode x synchronous (simulated)");
  sub->add_option("PATH", options->paths,
                  "Directories whose scratch holds the recovered images (default: .)");
  AddListOption(*sub, "--journal-modes", options->journal_modes,
                "Journal modes (comma-separated; default delete,truncate,persist,wal)")
      ->transform(OneOf(KeysOf(sqlite_bench::JournalModeNames()), "journal mode"));
  AddListOption(*sub, "--synchronous", options->synchronous,
                "Synchronous levels (comma-separated; default off,normal,full,extra)")
      ->transform(OneOf(KeysOf(sqlite_bench::SynchronousNames()), "synchronous level"));
  AddListOption(*sub, "--batch", options->batches, "Rows per commit, comma-separated, e.g. 1,100")
      ->capture_default_str()
      ->check(InRange(1, 100000));
  AddCrashsimOptions(*sub, *options);
  AddDryRun(*sub, options->common.out);
  AddOutputOptions(*sub, options->common.out, output::Document::kReport);
  AddStandardFlags(*sub, options->common.out);
  return {sub, [options] { return RunCrashsim(*options); }};
}

int RunCrashsim(const CrashsimCliOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  return ExecutePlan(
      platform, run::MakeCrashsimCommandPlan(*paths, o), o.common.out,
      [](const model::Report& r) { return FailedCrashsim(r) > 0 ? kExitFail : kExitOk; });
}

}  // namespace durprobe::cli
