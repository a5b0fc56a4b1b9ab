#include "run/crash_plans.h"

#include <fmt/format.h>

#include <optional>

#include "model/report.h"
#include "platform/crash_device.h"
#include "platform/crash_log.h"
#include "platform/inspect.h"
#include "run/crashtest_phase.h"
#include "run/plan_parts.h"

namespace durprobe::run {
namespace {

using sqlite_bench::CrashsimConfig;
using sqlite_bench::JournalMode;
using sqlite_bench::Synchronous;

// Without journal modes and synchronous levels: the settings SQLite documents as keeping every
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

Result<std::vector<CrashsimConfig>> CrashtestConfigs(const CrashtestRequest& r) {
  std::vector<std::uint32_t> batches;
  for (const std::string& b : r.batches) {
    batches.push_back(static_cast<std::uint32_t>(std::stoul(b)));
  }
  std::vector<CrashsimConfig> configs;
  if (r.journal_modes.empty() && r.synchronous.empty()) {
    for (std::uint32_t b : batches) {
      for (const CrashsimConfig& c : DefaultConfigs(b)) configs.push_back(c);
    }
    return configs;
  }
  std::vector<JournalMode> journals;
  for (const std::string& j : r.journal_modes) {
    auto it = sqlite_bench::JournalModeNames().find(j);
    if (it == sqlite_bench::JournalModeNames().end()) {
      return Status::InvalidArgument(fmt::format("--journal-modes: unknown mode '{}'", j));
    }
    journals.push_back(it->second);
  }
  std::vector<Synchronous> syncs;
  for (const std::string& s : r.synchronous) {
    auto it = sqlite_bench::SynchronousNames().find(s);
    if (it == sqlite_bench::SynchronousNames().end()) {
      return Status::InvalidArgument(fmt::format("--synchronous: unknown level '{}'", s));
    }
    syncs.push_back(it->second);
  }
  return sqlite_bench::CrashsimConfigs(journals, syncs, batches);
}

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

// The device's own refusal (root, /dev/fuse, loop devices), or the first path whose filesystem
// it cannot make, each as the command's one line.
Status CrashDeviceReady(platform::Platform& platform, const std::string& command,
                        const std::vector<std::string>& paths,
                        const sqlite_bench::CrashtestOptions* makes, bool dry_run) {
  if (!dry_run) {
    if (Status s = platform::CrashDeviceMissing(platform); !s.ok()) {
      return Status::InvalidArgument(command + ": " + s.message());
    }
  }
  if (makes != nullptr) {
    if (Status s = CrashDeviceMakesEach(platform, paths, *makes); !s.ok()) {
      return Status::InvalidArgument(command + ": " + s.message());
    }
  }
  return Status::Ok();
}

}  // namespace

Result<Plan> MakeCrashtestPlan(platform::Platform& platform, const std::vector<std::string>& paths,
                               const CrashtestRequest& request, bool dry_run) {
  if (!request.mount_options.empty() && request.fs.empty()) {
    return Status::InvalidArgument(
        "--mount-options needs --fs: the path's own filesystem keeps its options");
  }
  Result<std::vector<CrashsimConfig>> configs = CrashtestConfigs(request);
  if (!configs.ok()) return configs.status();
  std::optional<platform::CrashStateSpec> state;
  if (!request.state.empty()) {
    Result<platform::CrashStateSpec> spec = platform::ParseStateDescription(request.state);
    if (!spec.ok()) return Status::InvalidArgument(spec.status().message());
    if (configs->size() != 1) {
      return Status::InvalidArgument(
          fmt::format("--state rebuilds a state of one configuration: give one journal mode, one "
                      "synchronous level and one batch (here {} configurations)",
                      configs->size()));
    }
    state = *spec;
  }
  if (!request.log.empty()) {
    if (!state) {
      return Status::InvalidArgument(
          "--log names the log a state was reported on: give --state too");
    }
    if (!sqlite_bench::IsLogDigest(request.log)) {
      return Status::InvalidArgument(fmt::format(
          "--log '{}' is not a reported log: 16 hex digits, as the row's log says", request.log));
    }
  }
  Plan plan;
  plan.command = "crashtest";
  plan.paths = paths;
  plan.run_inspect = true;  // the path's filesystem and options
  plan.run_crashtest = true;
  plan.crashtest.configs = *configs;
  sqlite_bench::CrashtestOptions& t = plan.crashtest.options;
  t.states = request.states;
  t.seed = request.seed;
  t.workload.commits = request.commits;
  t.fs = {request.fs, request.mount_options};
  if (!request.fs.empty()) {
    if (Status refused = platform::CheckCrashFsSpec(t.fs); !refused.ok()) {
      return Status::InvalidArgument("--mount-options: " + refused.message());
    }
  }
  t.only_state = state;
  t.log = request.log;
  t.mode = request.device == "ignores-flush" ? platform::CacheMode::kIgnoresFlush
           : request.device == "torn"        ? platform::CacheMode::kTorn
                                             : platform::CacheMode::kHonest;
  // crashsim's model of the same configurations, for the comparison column.
  plan.run_crashsim = true;
  CrashsimRequest sim;
  sim.seed = request.seed;
  plan.crashsim = MakeCrashsimPlan(sim, *configs);
  if (Status s = CrashDeviceReady(platform, "crashtest", paths, &t, dry_run); !s.ok()) return s;
  return plan;
}

Result<Plan> MakeFaultsPlan(platform::Platform& platform, const std::vector<std::string>& paths,
                            const FaultsRequest& request, bool dry_run) {
  if (!request.mount_options.empty() && request.filesystems.empty()) {
    return Status::InvalidArgument(
        "--mount-options needs --fs: the path's own filesystem keeps its options");
  }
  Plan plan;
  plan.command = "faults";
  plan.paths = paths;
  plan.run_inspect = true;
  plan.run_faults = true;
  plan.faults.sqlite = request.sqlite;
  for (const std::string& item : request.filesystems) {
    Result<platform::FsSpec> fs =
        ParseFs(item.find(':') == std::string::npos && !request.mount_options.empty()
                    ? item + ":" + request.mount_options
                    : item);
    if (!fs.ok()) return fs.status();
    plan.faults.filesystems.push_back(*fs);
  }
  const sqlite_bench::CrashtestOptions own_filesystem;
  if (Status s =
          CrashDeviceReady(platform, "faults", paths,
                           plan.faults.filesystems.empty() ? &own_filesystem : nullptr, dry_run);
      !s.ok()) {
    return s;
  }
  return plan;
}

Status CrashDeviceMakesEach(platform::Platform& platform, const std::vector<std::string>& paths,
                            const sqlite_bench::CrashtestOptions& options) {
  for (const std::string& path : paths) {
    model::Target target;
    target.path = path;
    Result<platform::MountInfo> mount = platform::InspectPath(platform, path);
    if (mount.ok()) target.mount = *mount;
    Result<platform::FsSpec> fs = CrashtestFsFor(options, target);
    if (!fs.ok()) return fs.status();
  }
  return Status::Ok();
}

}  // namespace durprobe::run
