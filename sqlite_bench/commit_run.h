// One configuration of the commit workload in progress: a fresh database opened through a
// counting VFS and warmed up, its timed repetitions run one at a time (so a schedule can put
// other configurations or a reference probe between them), then every row read back and the
// database closed and removed. Never prints.
#pragma once

#include <limits>
#include <memory>
#include <string>

#include "platform/platform.h"
#include "sqlite_bench/commit_result.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::sqlite_bench {

class CountingVfs;
struct CommitOptions;

class CommitRun {
 public:
  // Opens scratch_dir/db_name (removing what a previous run left there) through vfs, which
  // counts for this configuration alone from here to Finish, applies config and runs the
  // warm-up. A failure is kept: the repetitions then do nothing and Finish reports it.
  CommitRun(platform::Platform& platform, CountingVfs& vfs, const std::string& scratch_dir,
            const std::string& db_name, const CommitConfig& config, const CommitOptions& options);
  // The same on a VFS the run owns (unregistered after the run is destroyed).
  CommitRun(std::unique_ptr<CountingVfs> vfs, platform::Platform& platform,
            const std::string& scratch_dir, const std::string& db_name, const CommitConfig& config,
            const CommitOptions& options);
  ~CommitRun();
  CommitRun(const CommitRun&) = delete;
  CommitRun& operator=(const CommitRun&) = delete;

  // Runs the next timed repetition: its share of what the warm-up left of the budget (or
  // fixed_commits commits). Returns the run's failure, if any. On SIGINT the repetition stops
  // after the commit in flight, is kept with the commits it made, and Interrupted is returned;
  // the run stays consistent, so Finish still reads every row back. cap_ns, when smaller,
  // shortens the repetition's share (the run's time left, run/deadline.h); min_commits still hold.
  Status Repetition(std::uint64_t cap_ns = std::numeric_limits<std::uint64_t>::max());
  std::uint32_t repetitions_done() const;
  // How long the last repetition's commits took (its window), 0 before the first.
  std::uint64_t last_repetition_ns() const;
  // The latency of the commits timed since the last call (or since the run began), summarised:
  // a repeat of the matrix (--repeat) reads its own repetitions' with it.
  probes::LatencySummary TakeRepeatLatency();
  // The repetitions so far summarised, the rows read back and checked, the database closed and
  // its files removed. Call once.
  CommitResult Finish();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace durprobe::sqlite_bench
