#include "run/faults.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "analysis/fsync_error_meaning.h"
#include "probes/fsync_errors.h"
#include "run/crashtest.h"
#include "run/progress.h"
#include "run/scratch_need.h"
#include "run/schedule.h"
#include "sqlite_bench/sync_failure.h"

namespace durprobe::run {
namespace {

struct Experiment {
  probes::FaultKind fault;
  platform::SyncCall sync;
};

constexpr Experiment kExperiments[] = {
    {probes::FaultKind::kDataOnce, platform::SyncCall::kFsync},
    {probes::FaultKind::kDataOnce, platform::SyncCall::kFdatasync},
    {probes::FaultKind::kDataPersistent, platform::SyncCall::kFsync},
    {probes::FaultKind::kDataDirect, platform::SyncCall::kFsync},
    {probes::FaultKind::kDataNoSpace, platform::SyncCall::kFsync},
    {probes::FaultKind::kDataAppend, platform::SyncCall::kFdatasync},
    {probes::FaultKind::kMetadata, platform::SyncCall::kFsync},
};

probes::FsyncErrorsResult RunOn(RunState& s, platform::ScratchDir& scratch,
                                const platform::FsSpec& fs, bool paths_own) {
  probes::FsyncErrorsResult r;
  r.fs = fs.type;
  r.fs_options = fs.options;
  r.paths_own_fs = paths_own;
  r.kernel = s.report.context.kernel;
  const std::uint64_t start = s.platform.NowNanos();
  platform::CrashDeviceOptions options;
  options.image_bytes = CrashImageBytes(fs.type, options.image_bytes);  // scratch_need.h
  Result<std::unique_ptr<platform::CrashDevice>> device =
      platform::CrashDevice::Create(s.platform, scratch.fd(), scratch.work_path(), options);
  auto failed = [&](probes::FaultKind fault, platform::SyncCall sync, const Status& status) {
    probes::FsyncErrorOutcome o;
    o.fault = fault;
    o.sync = sync == platform::SyncCall::kFdatasync ? "fdatasync" : "fsync";
    o.status = probes::OutcomeOf(status);
    o.reason = status.message();
    return o;
  };
  for (const Experiment& e : kExperiments) {
    if (Interrupted()) break;
    Status ready = device.ok() ? (*device)->Format(fs) : device.status();
    r.outcomes.push_back(
        ready.ok() ? probes::RunFsyncErrorExperiment(s.platform, **device, fs, e.fault, e.sync)
                   : failed(e.fault, e.sync, ready));
  }
  // A checkpoint exists where the data goes through a journal first: ext4's data=journal.
  if (fs.type == "ext4" && fs.options.find("data=journal") != std::string::npos && !Interrupted()) {
    const probes::FaultKind fault = probes::FaultKind::kDataCheckpoint;
    Status ready = device.ok() ? (*device)->Format(fs) : device.status();
    r.outcomes.push_back(ready.ok()
                             ? probes::RunFsyncErrorExperiment(s.platform, **device, fs, fault,
                                                               platform::SyncCall::kFsync)
                             : failed(fault, platform::SyncCall::kFsync, ready));
  }
  if (s.plan.faults.sqlite) {
    for (sqlite_bench::JournalMode j :
         {sqlite_bench::JournalMode::kDelete, sqlite_bench::JournalMode::kWal}) {
      if (Interrupted()) break;
      Status ready = device.ok() ? (*device)->Format(fs) : device.status();
      if (!ready.ok()) {
        probes::SqliteSyncFailure f;
        f.journal_mode = sqlite_bench::NameOf(j);
        f.status = probes::OutcomeOf(ready);
        f.reason = ready.message();
        r.sqlite.push_back(f);
        continue;
      }
      r.sqlite.push_back(sqlite_bench::RunSqliteSyncFailure(s.platform, **device, fs, j));
    }
  }
  r.ns = s.platform.NowNanos() - start;
  return r;
}

}  // namespace

void RunFaultsOn(RunState& s, model::Target& t, platform::ScratchDir& scratch) {
  std::vector<platform::FsSpec> filesystems = s.plan.faults.filesystems;
  const bool paths_own = filesystems.empty();
  if (paths_own) {
    sqlite_bench::CrashtestOptions own;  // no --fs: the path's filesystem, as crashtest makes it
    Result<platform::FsSpec> fs = CrashtestFsFor(own, t);
    if (!fs.ok()) {
      probes::FsyncErrorsResult r;
      probes::FsyncErrorOutcome o;
      o.status = probes::Outcome::kError;
      o.reason = fs.status().message();
      r.outcomes.push_back(o);
      t.fsync_errors.push_back(r);
      return;
    }
    filesystems.push_back(*fs);
  }
  for (const platform::FsSpec& fs : filesystems) {
    if (Interrupted()) {
      t.unfinished.push_back({model::UnfinishedKind::kFaults,
                              fs.type + (fs.options.empty() ? "" : " -o " + fs.options)});
      continue;
    }
    s.progress.Start("faults",
                     fmt::format("{}: failing writes on {} (crash device)", t.path, fs.type), 0);
    t.fsync_errors.push_back(RunOn(s, scratch, fs, paths_own));
  }
  for (model::Finding& f : analysis::AssessFsyncErrors(t)) t.findings.push_back(std::move(f));
}

}  // namespace durprobe::run
