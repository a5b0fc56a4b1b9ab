#include "sqlite_bench/commit_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>

#include "sqlite_bench/commit_run.h"
#include "sqlite_bench/device_warmup.h"
#include "sqlite_bench/past_deadline.h"

namespace durprobe::sqlite_bench {

CommitResult RunCommitConfig(platform::Platform& platform, CountingVfs& vfs,
                             const std::string& scratch_dir, const std::string& db_name,
                             const CommitConfig& config, const CommitOptions& options) {
  CommitRun run(platform, vfs, scratch_dir, db_name, config, options);
  Status s;
  // Past the run's deadline no repetition starts after the first (a fixed-commit run is not
  // cut).
  auto before_deadline = [&] {
    return options.fixed_commits != 0 || !PastDeadline(platform, options.deadline_ns);
  };
  for (std::uint32_t rep = 0;
       s.ok() && rep < options.TimedRepetitions() && (rep == 0 || before_deadline()); ++rep) {
    s = run.Repetition();
  }
  CommitResult r = run.Finish();
  if (!s.ok() && r.outcome == probes::Outcome::kOk) {
    r.outcome = probes::OutcomeOf(s);
    r.reason = s.message();
  }
  return r;
}

CommitSession::CommitSession(platform::Platform& platform, std::string dir,
                             std::unique_ptr<CountingVfs> vfs)
    : platform_(platform), dir_(std::move(dir)), vfs_(std::move(vfs)) {}

CommitSession::~CommitSession() = default;

namespace {

Result<std::unique_ptr<CountingVfs>> RegisterCountingVfs(platform::Platform& platform) {
  static std::atomic<int> serial{0};
  std::string name = fmt::format("durprobe-counting-{}-{}", platform.ProcessId(), serial++);
  return CountingVfs::Register(platform, name);
}

}  // namespace

Result<std::unique_ptr<CommitSession>> CommitSession::Open(platform::Platform& platform,
                                                           const std::string& scratch_dir) {
  Result<std::unique_ptr<CountingVfs>> vfs = RegisterCountingVfs(platform);
  if (!vfs.ok()) return vfs.status();
  return std::unique_ptr<CommitSession>(new CommitSession(platform, scratch_dir, std::move(*vfs)));
}

Status CommitSession::WarmUpDeviceOnce(const CommitOptions& options) {
  if (warmed_up_ || options.device_warmup_ns == 0) return Status::Ok();
  warmed_up_ = true;
  Result<DeviceWarmup> warm =
      WarmUpDevice(platform_, dir_, std::min(options.device_warmup_ns, options.budget_ns / 10));
  if (warm.ok()) return Status::Ok();
  const Status& failed = warm.status();
  std::string message = "device warm-up: " + failed.message();
  if (failed.kind() == Status::Kind::kInterrupted) return failed;
  return failed.unsupported() ? Status::Unsupported(message) : Status::Error(message);
}

CommitResult CommitSession::Run(const CommitConfig& config, const CommitOptions& options) {
  if (Status s = WarmUpDeviceOnce(options); !s.ok()) {
    return NotRun(config, probes::OutcomeOf(s), s.message());
  }
  return RunCommitConfig(platform_, *vfs_, dir_, fmt::format("commit-{}.db", next_++), config,
                         options);
}

Result<std::unique_ptr<CommitRun>> CommitSession::Begin(const CommitConfig& config,
                                                        const CommitOptions& options) {
  if (Status s = WarmUpDeviceOnce(options); !s.ok()) return s;
  Result<std::unique_ptr<CountingVfs>> vfs = RegisterCountingVfs(platform_);
  if (!vfs.ok()) return vfs.status();
  return std::make_unique<CommitRun>(std::move(*vfs), platform_, dir_,
                                     fmt::format("commit-{}.db", next_++), config, options);
}

void CommitSession::WarmUp(const CommitConfig& config, std::uint64_t deadline_ns) {
  // No time of its own (budget 0): kWarmUpCommits commits, or fewer at the deadline.
  CommitOptions untimed{.budget_ns = 0,
                        .repetitions = 1,
                        .warmup_commits = 0,
                        .min_commits = kWarmUpCommits,
                        .deadline_ns = deadline_ns};
  RunCommitConfig(platform_, *vfs_, dir_, "warm-up.db", config, untimed);
}

CommitResult NotRun(const CommitConfig& config, probes::Outcome outcome, std::string reason) {
  CommitResult r;
  r.config = config;
  r.outcome = outcome;
  r.reason = std::move(reason);
  return r;
}

std::uint64_t PerConfigBudget(std::uint64_t budget_ns, std::size_t n) {
  return n == 0 ? budget_ns : budget_ns / n;
}

}  // namespace durprobe::sqlite_bench
