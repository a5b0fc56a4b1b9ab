#include "cli/cmd_crashtest.h"

#include <fmt/format.h>

#include <memory>

#include "cli/cmd_crashsim.h"
#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "cli/validators.h"
#include "run/crash_plans.h"
#include "run/target_paths.h"

namespace durprobe::cli {
namespace {

int FailedCrashtest(const model::Report& report) {
  int failed = FailedCrashsim(report);
  for (const model::Target& t : report.targets) {
    for (const sqlite_bench::CrashtestResult& r : t.crashtest) {
      if (r.outcome != probes::Outcome::kError) continue;
      PrintError(fmt::format("{}: crashtest {}/{}: {}", t.path,
                             sqlite_bench::NameOf(r.config.journal),
                             sqlite_bench::NameOf(r.config.sync), r.reason));
      ++failed;
    }
  }
  return failed > 0 ? kExitFail : kExitOk;
}

}  // namespace

Subcommand SetupCrashtest(CLI::App& app) {
  auto o = std::make_shared<CrashtestCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "crashtest", "What a power cut loses on a real filesystem (the crash device; root)");
  sub->add_option("PATH", o->paths,
                  "Directories whose filesystem is tested and whose scratch holds the crash "
                  "device (default: .)");
  AddListOption(*sub, "--journal-modes", o->request.journal_modes,
                "Journal modes (comma-separated; with --synchronous the cross product; default "
                "DELETE/FULL, DELETE/EXTRA, TRUNCATE/FULL, WAL/FULL, WAL/NORMAL, DELETE/OFF, "
                "WAL/OFF)")
      ->transform(OneOf(KeysOf(sqlite_bench::JournalModeNames()), "journal mode"));
  AddListOption(*sub, "--synchronous", o->request.synchronous,
                "Synchronous levels (comma-separated; default with --journal-modes: off, normal, "
                "full, extra)")
      ->transform(OneOf(KeysOf(sqlite_bench::SynchronousNames()), "synchronous level"));
  AddListOption(*sub, "--batch", o->request.batches, "Rows per commit, comma-separated, e.g. 1,100")
      ->capture_default_str()
      ->check(InRange(1, 100000));
  sub->add_option("--states", o->request.states,
                  "Crash states per configuration, at most (default 200)")
      ->check(InRange(1, 100000));
  sub->add_option("--seed", o->request.seed, "Seed of the states chosen (default 1)");
  sub->add_option("--commits", o->request.commits, "Commits the workload makes (default 30)")
      ->check(InRange(1, 10000));
  sub->add_option("--device", o->request.device,
                  "The crash device's cache: honest (default), ignores-flush, torn")
      ->transform(OneOf({"honest", "ignores-flush", "torn"}, "device"));
  sub->add_option("--fs", o->request.fs,
                  "The filesystem to make: ext4, xfs, btrfs (default: the path's)")
      ->transform(OneOf({"ext4", "xfs", "btrfs"}, "filesystem"));
  sub->add_option("--mount-options", o->request.mount_options,
                  "Its mount options with --fs, as mount -o takes them (data=journal,nobarrier)");
  sub->add_option("--state", o->request.state,
                  "Rebuild and check one reported state ('flush 3 + writes 17,19'), of the one "
                  "configuration given with --journal-modes and --synchronous");
  sub->add_option("--log", o->request.log,
                  "With --state: the report's log for that row (16 hex digits); the workload is "
                  "run again until it logs the same, at most 10 times");
  AddDryRun(*sub, o->common.out);
  AddOutputOptions(*sub, o->common.out, output::Document::kReport);
  AddStandardFlags(*sub, o->common.out);
  return {sub, [o] { return RunCrashtest(*o); }};
}

int RunCrashtest(const CrashtestCliOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = run::ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<run::Plan> plan =
      run::MakeCrashtestPlan(platform, *paths, o.request, o.common.out.dry_run);
  if (!plan.ok()) return UsageError(plan.status().message());
  return ExecutePlan(platform, *plan, o.common.out, FailedCrashtest);
}

}  // namespace durprobe::cli
