#include "run/executor.h"

#include <fmt/format.h>

#include <memory>
#include <vector>

#include "model/finding_codes.h"
#include "platform/fs_magic.h"
#include "platform/interrupt.h"
#include "platform/scratch.h"
#include "run/context.h"
#include "run/ebs_counters.h"
#include "run/interleaved.h"
#include "run/path_by_path.h"
#include "run/planned_time.h"
#include "run/progress.h"
#include "run/progress_ticker.h"
#include "run/scratch_need.h"
#include "sqlite_bench/build_info.h"

namespace durprobe::run {

Status CheckStackLimit(platform::Platform& platform) {
  Result<std::uint64_t> limit = platform.StackLimitBytes();
  if (!limit.ok() || *limit == 0 || *limit >= kMinStackBytes) return Status::Ok();
  return Status::InvalidArgument(
      fmt::format("the stack size limit is {} KiB (ulimit -s {}): durprobe needs at least {} KiB; "
                  "raise it (ulimit -s {})",
                  *limit / 1024, *limit / 1024, kMinStackBytes / 1024, kMinStackBytes / 1024));
}

namespace {

// The type of path's filesystem from statfs ("xfs"), or "" when it cannot be read.
std::string FsTypeOf(platform::Platform& platform, const std::string& path) {
  Result<platform::FsStat> fs = platform.StatFs(path);
  return fs.ok() ? std::string(platform::FsTypeOfMagic(fs->magic)) : std::string();
}

// A budget-bound SQLite matrix writes rows until its time is up, up to max_rows a
// configuration: lowered so that every configuration fits in a tenth less than the free space
// the other parts leave, on the path with the least. Nothing else changes.
void FitRowsToFreeSpace(platform::Platform& platform, Plan& plan, std::uint64_t need_besides) {
  if (!plan.run_sqlite || plan.sqlite.options.fixed_commits > 0) return;
  for (const std::string& path : plan.paths) {
    Result<std::uint64_t> free = platform.FreeBytes(path);
    if (!free.ok()) continue;
    const std::uint64_t usable = *free / 10 * 9;
    const std::uint64_t room = usable > need_besides ? usable - need_besides : 0;
    plan.sqlite.options.max_rows = RowsThatFit(plan.sqlite, room);
  }
}

}  // namespace

Execution Execute(platform::Platform& platform, const Plan& given, model::RunListener& listener) {
  Plan plan = given;  // its SQLite rows may be fitted to the free space (FitRowsToFreeSpace)
  Execution ex;
  model::Context& context = ex.report.context;
  context = run::MakeContext(platform, plan.command);
  context.command_line = plan.command_line;
  context.options = Describe(plan);

  // Every scratch directory first: a path that cannot take one fails the run before anything
  // is measured anywhere.
  std::vector<std::unique_ptr<platform::ScratchDir>> scratch;
  if (plan.Measures()) {
    ex.status = CheckStackLimit(platform);
    if (!ex.status.ok()) return ex;
    ScratchParts parts{
        .probe_specs = plan.run_probes ? &plan.probes.specs : nullptr,
        .op_options = plan.probes.op_options,
        .matrix = plan.run_sqlite ? &plan.sqlite : nullptr,
        .workloads = plan.run_workloads ? &plan.workloads : nullptr,
        .concurrency_bytes = plan.run_concurrency ? ConcurrencyScratchBytes(plan.concurrency) : 0};
    for (const std::string& path : plan.paths) {
      const std::string own_fs = FsTypeOf(platform, path);
      parts.crash_device_bytes = CrashDeviceScratchBytes(plan, own_fs);
      ex.status = CheckFreeSpace(platform, path, ScratchNeedBytes(parts), AskForLess(plan, own_fs));
      if (!ex.status.ok()) return ex;
      Result<std::unique_ptr<platform::ScratchDir>> dir =
          platform::ScratchDir::Create(platform, path);
      if (!dir.ok()) {
        ex.status = Status::InvalidArgument("cannot create a scratch directory in " + path + ": " +
                                            dir.status().message());
        return ex;  // the ones made so far go with `scratch`
      }
      // SQLite refuses names over its limit: say so now, not as "No such file" per config.
      if (plan.run_sqlite || plan.run_workloads || plan.run_crashsim) {
        std::string too_long =
            SqlitePathTooLongMessage(path, (*dir)->work_path(), sqlite_bench::SqliteMaxPathBytes());
        if (!too_long.empty()) {
          ex.status = Status::InvalidArgument(too_long);
          return ex;
        }
      }
      scratch.push_back(std::move(*dir));
    }
    ScratchParts besides = parts;
    besides.matrix = nullptr;
    const std::uint64_t max_rows = plan.sqlite.options.max_rows;
    FitRowsToFreeSpace(platform, plan, ScratchNeedBytes(besides));
    if (plan.sqlite.options.max_rows < max_rows) {
      context.options["sqlite_max_rows"] = plan.sqlite.options.max_rows;
    }
  }

  std::vector<std::optional<platform::EbsStats>> ebs_before;
  if (plan.run_inspect && plan.Measures()) ebs_before = ReadEbsBefore(platform, plan.paths);
  listener.RunStarted(context);
  Progress progress(platform, listener);
  ExpectItems(plan, progress);
  Timeline timeline(platform, plan.RunBudgetNs());
  Status stopped;
  RunState state{platform, plan,    listener, progress, ex.report, scratch, platform.NowNanos(),
                 timeline, &stopped};
  ProgressTicker ticker(progress, listener.TickIntervalNs());
  if (plan.schedule == Schedule::kInterleaved) {
    RunInterleaved(state);
  } else {
    RunPathByPath(state);
  }
  ticker.Stop();  // before anything else is printed: no tick after the run's last event
  progress.Finish();
  AddEbsDeltas(platform, plan.paths, ebs_before, ex.report.targets);

  (void)ScratchesInPlace(state);  // the end's check: a scratch moved during the last step
  for (std::unique_ptr<platform::ScratchDir>& dir : scratch) {
    Status removed = dir->Remove();
    if (!removed.ok() && ex.status.ok()) {
      ex.status = Status::Error("could not remove scratch: " + removed.message());
    }
  }
  if (!stopped.ok()) {
    // A scratch that moved is someone else acting on the run: its results are not reported.
    ex.status = Status::InvalidArgument(stopped.message());
    return ex;
  }
  if (int sig = platform::InterruptSignal(); sig != 0) {
    context.interrupted = true;
    context.interrupt_signal = sig;
    ex.status = Status::Interrupted(sig);
  }
  listener.RunFinished(ex.report);
  return ex;
}

Execution Execute(platform::Platform& platform, const Plan& plan) {
  model::RunListener none;
  return Execute(platform, plan, none);
}

}  // namespace durprobe::run
