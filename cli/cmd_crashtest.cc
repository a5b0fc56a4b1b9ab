#include "cli/cmd_crashtest.h"

#include <fmt/format.h>

#include <memory>
#include <optional>

#include "cli/cmd_crashsim.h"
#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "cli/target_paths.h"
#include "cli/validators.h"
#include "platform/crash_device.h"
#include "platform/inspect.h"
#include "run/crashtest.h"
#include "run/plan_parts.h"

namespace durprobe::cli {
namespace {

using sqlite_bench::CrashsimConfig;
using sqlite_bench::JournalMode;
using sqlite_bench::Synchronous;

// Without --journal-modes and --synchronous: the settings SQLite documents as keeping every
// commit, the last or the last few, and OFF, which it does not.
std::vector<CrashsimConfig> DefaultConfigs(std::uint32_t batch) {
  return {{JournalMode::kDelete, Synchronous::kFull, batch},
          {JournalMode::kDelete, Synchronous::kExtra, batch},
          {JournalMode::kTruncate, Synchronous::kFull, batch},
          {JournalMode::kWal, Synchronous::kFull, batch},
          {JournalMode::kWal, Synchronous::kNormal, batch},
          {JournalMode::kDelete, Synchronous::kOff, batch},
          {JournalMode::kWal, Synchronous::kOff, batch}};
}

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
  AddListOption(*sub, "--journal-modes", o->journal_modes,
                "Journal modes (comma-separated; with --synchronous the cross product; default "
                "DELETE/FULL, DELETE/EXTRA, TRUNCATE/FULL, WAL/FULL, WAL/NORMAL, DELETE/OFF, "
                "WAL/OFF)")
      ->transform(OneOf(KeysOf(sqlite_bench::JournalModeNames()), "journal mode"));
  AddListOption(*sub, "--synchronous", o->synchronous,
                "Synchronous levels (comma-separated; default with --journal-modes: off, normal, "
                "full, extra)")
      ->transform(OneOf(KeysOf(sqlite_bench::SynchronousNames()), "synchronous level"));
  AddListOption(*sub, "--batch", o->batches, "Rows per commit, comma-separated, e.g. 1,100")
      ->capture_default_str()
      ->check(InRange(1, 100000));
  sub->add_option("--states", o->states, "Crash states per configuration, at most (default 200)")
      ->check(InRange(1, 100000));
  sub->add_option("--seed", o->seed, "Seed of the states chosen (default 1)");
  sub->add_option("--commits", o->commits, "Commits the workload makes (default 30)")
      ->check(InRange(1, 10000));
  sub->add_option("--device", o->device,
                  "The crash device's cache: honest (default), ignores-flush, torn")
      ->transform(OneOf({"honest", "ignores-flush", "torn"}, "device"));
  sub->add_option("--fs", o->fs, "The filesystem to make: ext4, xfs, btrfs (default: the path's)")
      ->transform(OneOf({"ext4", "xfs", "btrfs"}, "filesystem"));
  sub->add_option("--mount-options", o->mount_options,
                  "Its mount options with --fs, as mount -o takes them (data=journal,nobarrier)");
  sub->add_option("--state", o->state,
                  "Rebuild and check one reported state ('flush 3 + writes 17,19'), of the one "
                  "configuration given with --journal-modes and --synchronous");
  sub->add_option("--log", o->log,
                  "With --state: the report's log for that row (16 hex digits); the workload is "
                  "run again until it logs the same, at most 10 times");
  AddDryRun(*sub, o->common.out);
  AddOutputOptions(*sub, o->common.out, output::Document::kReport);
  AddStandardFlags(*sub, o->common.out);
  return {sub, [o] { return RunCrashtest(*o); }};
}

int RunCrashtest(const CrashtestCliOptions& o) {
  platform::Platform& platform = platform::Default();
  if (!o.mount_options.empty() && o.fs.empty()) {
    return UsageError("--mount-options needs --fs: the path's own filesystem keeps its options");
  }
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  std::vector<std::uint32_t> batches;
  for (const std::string& b : o.batches) {
    batches.push_back(static_cast<std::uint32_t>(std::stoul(b)));
  }
  std::vector<CrashsimConfig> configs;
  if (o.journal_modes.empty() && o.synchronous.empty()) {
    for (std::uint32_t b : batches) {
      for (const CrashsimConfig& c : DefaultConfigs(b)) configs.push_back(c);
    }
  } else {
    std::vector<JournalMode> journals;
    for (const std::string& j : o.journal_modes) {
      journals.push_back(sqlite_bench::JournalModeNames().at(j));
    }
    std::vector<Synchronous> syncs;
    for (const std::string& s : o.synchronous) {
      syncs.push_back(sqlite_bench::SynchronousNames().at(s));
    }
    configs = sqlite_bench::CrashsimConfigs(journals, syncs, batches);
  }
  std::optional<platform::CrashStateSpec> state;
  if (!o.state.empty()) {
    Result<platform::CrashStateSpec> spec = platform::ParseStateDescription(o.state);
    if (!spec.ok()) return UsageError(spec.status().message());
    if (configs.size() != 1) {
      return UsageError(
          fmt::format("--state rebuilds a state of one configuration: give one journal mode, one "
                      "synchronous level and one batch (here {} configurations)",
                      configs.size()));
    }
    state = *spec;
  }
  if (!o.log.empty()) {
    if (!state) return UsageError("--log names the log a state was reported on: give --state too");
    if (!sqlite_bench::IsLogDigest(o.log)) {
      return UsageError(fmt::format(
          "--log '{}' is not a reported log: 16 hex digits, as the row's log says", o.log));
    }
  }
  run::Plan plan;
  plan.command = "crashtest";
  plan.paths = *paths;
  plan.run_inspect = true;  // the path's filesystem and options
  plan.run_crashtest = true;
  plan.crashtest.configs = configs;
  sqlite_bench::CrashtestOptions& t = plan.crashtest.options;
  t.states = o.states;
  t.seed = o.seed;
  t.workload.commits = o.commits;
  t.fs = {o.fs, o.mount_options};
  if (!o.fs.empty()) {
    if (Status refused = platform::CheckCrashFsSpec(t.fs); !refused.ok()) {
      return UsageError("--mount-options: " + refused.message());
    }
  }
  t.only_state = state;
  t.log = o.log;
  t.mode = o.device == "ignores-flush" ? platform::CacheMode::kIgnoresFlush
           : o.device == "torn"        ? platform::CacheMode::kTorn
                                       : platform::CacheMode::kHonest;
  // crashsim's model of the same configurations, for the comparison column.
  plan.run_crashsim = true;
  run::CrashsimRequest sim;
  sim.seed = o.seed;
  plan.crashsim = run::MakeCrashsimPlan(sim, configs);
  if (!o.common.out.dry_run) {
    if (Status s = platform::CrashDeviceMissing(platform); !s.ok()) {
      return UsageError("crashtest: " + s.message());
    }
  }
  if (Status s = CrashDeviceMakesEach(platform, *paths, t); !s.ok()) {
    return UsageError("crashtest: " + s.message());
  }
  return ExecutePlan(platform, plan, o.common.out, FailedCrashtest);
}

Status CrashDeviceMakesEach(platform::Platform& platform, const std::vector<std::string>& paths,
                            const sqlite_bench::CrashtestOptions& options) {
  for (const std::string& path : paths) {
    model::Target target;
    target.path = path;
    Result<platform::MountInfo> mount = platform::InspectPath(platform, path);
    if (mount.ok()) target.mount = *mount;
    Result<platform::FsSpec> fs = run::CrashtestFsFor(options, target);
    if (!fs.ok()) return fs.status();
  }
  return Status::Ok();
}

}  // namespace durprobe::cli
