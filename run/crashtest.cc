#include "run/crashtest.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/crashtest_agreement.h"
#include "run/progress.h"
#include "run/scratch_need.h"
#include "run/schedule.h"

namespace durprobe::run {
namespace {

// ext4's options that change what reaches the disk and when; the rest (noatime, errors=) do not
// change a crash state's outcome and some would refuse a loop device.
bool KeptExt4Option(const std::string& o) {
  return o.rfind("data=", 0) == 0 || o == "nobarrier" || o.rfind("barrier", 0) == 0 ||
         o.rfind("commit=", 0) == 0 || o == "journal_checksum" || o == "journal_async_commit";
}

}  // namespace

Result<platform::FsSpec> CrashtestFsFor(const sqlite_bench::CrashtestOptions& options,
                                        const model::Target& target) {
  if (!options.fs.type.empty()) return options.fs;
  if (!target.mount) {
    return Status::InvalidArgument(target.path +
                                   ": its filesystem is not known; name one with --fs");
  }
  const std::string& type = target.mount->fstype;
  if (type != "ext4" && type != "xfs" && type != "btrfs") {
    return Status::InvalidArgument(fmt::format(
        "{} is on {}: crashtest makes ext4, xfs or btrfs on its device; name one with --fs",
        target.path, type));
  }
  platform::FsSpec fs{type, ""};
  if (type == "ext4") {
    for (const std::string& o : target.mount->options) {
      if (KeptExt4Option(o)) fs.options += (fs.options.empty() ? "" : ",") + o;
    }
  }
  return fs;
}

void RunCrashtestOn(RunState& s, model::Target& t, platform::ScratchDir& scratch) {
  sqlite_bench::CrashtestPlan plan = s.plan.crashtest;
  Result<platform::FsSpec> fs = CrashtestFsFor(plan.options, t);
  if (!fs.ok()) {
    for (const sqlite_bench::CrashsimConfig& c : plan.configs) {
      sqlite_bench::CrashtestResult r;
      r.config = c;
      r.outcome = probes::Outcome::kError;
      r.reason = fs.status().message();
      r.device = platform::CacheModeName(plan.options.mode);
      r.seed = plan.options.seed;
      t.crashtest.push_back(r);
    }
    return;
  }
  const bool paths_own = plan.options.fs.type.empty();
  plan.options.fs = *fs;
  // mkfs.xfs refuses a device under 300 MiB (scratch_need.h counts the same image).
  plan.options.image_bytes = CrashImageBytes(fs->type, plan.options.image_bytes);
  if (!Interrupted()) {
    s.progress.Start("crashtest",
                     fmt::format("{}: power cuts on {} (crash device)", t.path, fs->type), 0);
    t.crashtest = sqlite_bench::RunCrashtest(s.platform, scratch.fd(), scratch.work_path(), plan);
    for (sqlite_bench::CrashtestResult& r : t.crashtest) r.paths_own_fs = paths_own;
  }
  for (std::size_t i = 0; i < plan.configs.size(); ++i) {
    const sqlite_bench::CrashsimConfig& c = plan.configs[i];
    std::string label = fmt::format("{}/{} x{}", sqlite_bench::NameOf(c.journal),
                                    sqlite_bench::NameOf(c.sync), c.rows_per_commit);
    if (i >= t.crashtest.size()) {
      t.unfinished.push_back({model::UnfinishedKind::kCrashtest, label});
    } else if (t.crashtest[i].outcome == probes::Outcome::kInterrupted) {
      t.unfinished.push_back({model::UnfinishedKind::kCrashtest,
                              fmt::format("{}: {} states", label, t.crashtest[i].states)});
    }
  }
  analysis::CompareWithCrashsim(t);
  analysis::AssessDurability(t, s.report.context);  // the crash states are evidence too
}

}  // namespace durprobe::run
