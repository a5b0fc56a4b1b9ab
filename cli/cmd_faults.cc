#include "cli/cmd_faults.h"

#include <fmt/format.h>

#include <memory>

#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "cli/validators.h"
#include "run/crash_plans.h"
#include "run/target_paths.h"

namespace durprobe::cli {
namespace {

int FailedFaults(const model::Report& report) {
  int failed = 0;
  for (const model::Target& t : report.targets) {
    for (const probes::FsyncErrorsResult& r : t.fsync_errors) {
      for (const probes::FsyncErrorOutcome& o : r.outcomes) {
        if (o.status != probes::Outcome::kError) continue;
        PrintError(fmt::format("{}: faults {} on {}: {}", t.path, probes::NameOf(o.fault), r.fs,
                               o.reason));
        ++failed;
      }
    }
  }
  return failed > 0 ? kExitFail : kExitOk;
}

}  // namespace

Subcommand SetupFaults(CLI::App& app) {
  auto o = std::make_shared<FaultsCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "faults", "What the filesystem does when a write fails: fsync errors (crash device; root)");
  sub->add_option("PATH", o->paths,
                  "Directories whose filesystem is tested and whose scratch holds the crash "
                  "device (default: .)");
  AddListOption(*sub, "--fs", o->request.filesystems,
                "Filesystems to make instead of the path's, comma-separated, each TYPE or "
                "TYPE:OPTIONS (ext4,ext4:data=journal,xfs,btrfs)");
  sub->add_option("--mount-options", o->request.mount_options,
                  "Mount options for each --fs that names none, as mount -o takes them "
                  "(data=journal,errors=remount-ro)");
  sub->add_flag("--no-sqlite", o->no_sqlite, "Skip SQLite's commit on a failing sync");
  AddDryRun(*sub, o->common.out);
  // --junit too: a testcase per experiment (a failed write the sync did not report fails).
  AddOutputOptions(*sub, o->common.out, output::Document::kReport, {}, true);
  AddStandardFlags(*sub, o->common.out);
  return {sub, [o] { return RunFaults(*o); }};
}

int RunFaults(const FaultsCliOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = run::ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  run::FaultsRequest request = o.request;
  request.sqlite = !o.no_sqlite;
  Result<run::Plan> plan = run::MakeFaultsPlan(platform, *paths, request, o.common.out.dry_run);
  if (!plan.ok()) return UsageError(plan.status().message());
  return ExecutePlan(platform, *plan, o.common.out, FailedFaults);
}

}  // namespace durprobe::cli
