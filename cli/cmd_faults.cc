#include "cli/cmd_faults.h"

#include <fmt/format.h>

#include <memory>

#include "cli/cmd_crashtest.h"
#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "cli/target_paths.h"
#include "cli/validators.h"
#include "platform/crash_device.h"

namespace durprobe::cli {
namespace {

// "ext4", "ext4:data=journal": the filesystem and its mount options; InvalidArgument otherwise.
Result<platform::FsSpec> ParseFs(const std::string& item) {
  platform::FsSpec fs;
  const std::size_t colon = item.find(':');
  fs.type = item.substr(0, colon);
  if (colon != std::string::npos) fs.options = item.substr(colon + 1);
  if (fs.type != "ext4" && fs.type != "xfs" && fs.type != "btrfs") {
    return Status::InvalidArgument(fmt::format(
        "--fs '{}': the crash device makes ext4, xfs or btrfs (TYPE or TYPE:OPTIONS, as in "
        "ext4:data=journal)",
        item));
  }
  if (Status refused = platform::CheckCrashFsSpec(fs); !refused.ok()) {
    return Status::InvalidArgument(fmt::format("--fs '{}': {}", item, refused.message()));
  }
  return fs;
}

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
  AddListOption(*sub, "--fs", o->filesystems,
                "Filesystems to make instead of the path's, comma-separated, each TYPE or "
                "TYPE:OPTIONS (ext4,ext4:data=journal,xfs,btrfs)");
  sub->add_option("--mount-options", o->mount_options,
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
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  run::Plan plan;
  plan.command = "faults";
  plan.paths = *paths;
  plan.run_inspect = true;
  plan.run_faults = true;
  plan.faults.sqlite = !o.no_sqlite;
  if (!o.mount_options.empty() && o.filesystems.empty()) {
    return UsageError("--mount-options needs --fs: the path's own filesystem keeps its options");
  }
  for (const std::string& item : o.filesystems) {
    Result<platform::FsSpec> fs =
        ParseFs(item.find(':') == std::string::npos && !o.mount_options.empty()
                    ? item + ":" + o.mount_options
                    : item);
    if (!fs.ok()) return UsageError(fs.status().message());
    plan.faults.filesystems.push_back(*fs);
  }
  if (!o.common.out.dry_run) {
    if (Status s = platform::CrashDeviceMissing(platform); !s.ok()) {
      return UsageError("faults: " + s.message());
    }
  }
  if (plan.faults.filesystems.empty()) {
    if (Status s = CrashDeviceMakesEach(platform, *paths, {}); !s.ok()) {
      return UsageError("faults: " + s.message());
    }
  }
  return ExecutePlan(platform, plan, o.common.out, FailedFaults);
}

}  // namespace durprobe::cli
