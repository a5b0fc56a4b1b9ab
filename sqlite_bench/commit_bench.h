// The commit workload: for each configuration a fresh database in the scratch directory, opened
// through the counting VFS, a warm-up, timed repetitions of transactions, then every row read
// back and checksummed. Never prints.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "probes/flush_tally.h"
#include "sqlite_bench/commit_result.h"
#include "sqlite_bench/commit_run.h"
#include "sqlite_bench/commit_spec.h"
#include "sqlite_bench/counting_vfs.h"
#include "sqlite_bench/device_warmup.h"

namespace durprobe::sqlite_bench {

struct CommitOptions {
  std::uint64_t budget_ns = 2'000'000'000;  // per configuration, setup and read-back included
  std::uint32_t repetitions = 5;            // read through TimedRepetitions(): 0 means 1
  std::uint64_t warmup_commits = 20;        // at most; also capped at a tenth of the budget
  std::uint64_t fixed_commits = 0;     // > 0: exactly this many commits per repetition, no clock
  std::uint64_t min_commits = 3;       // per repetition, even past the budget, not the deadline
  std::uint64_t max_rows = 2'000'000;  // per configuration, so fast modes stay small on disk
  // Untimed syncs once per session, before its first configuration (sqlite_bench/device_warmup.h),
  // at most a tenth of budget_ns; 0 skips them.
  std::uint64_t device_warmup_ns = kDeviceWarmupNs;
  // The run's deadline for this configuration on the platform's clock (run/deadline.h), 0 for
  // none: past it, warm-up stops and a repetition ends after its first commit. A run of
  // fixed_commits is never cut.
  std::uint64_t deadline_ns = 0;
  // The devices whose flushes are counted around each repetition's timed commits, with an idle
  // slice after it for the background (probes/flush_tally.h); none: nothing counted.
  probes::FlushCounting flush_counting;

  std::uint32_t TimedRepetitions() const { return repetitions > 0 ? repetitions : 1; }
};

struct MatrixPlan {
  std::vector<CommitConfig> configs;
  CommitOptions options;  // budget_ns here is per configuration
};

// Runs one configuration in scratch_dir through an already registered counting VFS.
CommitResult RunCommitConfig(platform::Platform& platform, CountingVfs& vfs,
                             const std::string& scratch_dir, const std::string& db_name,
                             const CommitConfig& config, const CommitOptions& options);

// A counting VFS registered for one scratch directory, so an executor can run configurations one
// at a time (and do other work between them). Unregisters the VFS when destroyed.
class CommitSession {
 public:
  static Result<std::unique_ptr<CommitSession>> Open(platform::Platform& platform,
                                                     const std::string& scratch_dir);
  ~CommitSession();
  // Runs config on a fresh database named after its position in the session. The first call
  // warms the device up first (WarmUpDevice); if that fails, config is not run and its result
  // carries the failure.
  CommitResult Run(const CommitConfig& config, const CommitOptions& options);
  // Begins config on a fresh database and a counting VFS of its own, so several configurations
  // can be open at once and their repetitions interleaved, each still counted alone. The first
  // call of Run or Begin warms the device up first; a failure there is returned.
  Result<std::unique_ptr<CommitRun>> Begin(const CommitConfig& config,
                                           const CommitOptions& options);
  // Runs config untimed (kWarmUpCommits commits on a database of its own, removed after), so the
  // first timed configuration does not pay alone for warming up SQLite, the page cache and the
  // device. Past deadline_ns (the platform's clock; 0: none) it stops after its first commit.
  static constexpr std::uint64_t kWarmUpCommits = 20;
  void WarmUp(const CommitConfig& config, std::uint64_t deadline_ns = 0);

 private:
  CommitSession(platform::Platform& platform, std::string dir, std::unique_ptr<CountingVfs> vfs);
  Status WarmUpDeviceOnce(const CommitOptions& options);
  platform::Platform& platform_;
  std::string dir_;
  std::unique_ptr<CountingVfs> vfs_;
  std::size_t next_ = 0;
  bool warmed_up_ = false;
};

// A configuration that could not run at all (no VFS, interrupted before it started).
CommitResult NotRun(const CommitConfig& config, probes::Outcome outcome, std::string reason);

// Splits a budget over n configurations.
std::uint64_t PerConfigBudget(std::uint64_t budget_ns, std::size_t n);

}  // namespace durprobe::sqlite_bench
