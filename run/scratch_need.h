// How much scratch space a plan is sure to write, and the check that refuses to start when the
// target's filesystem cannot hold it (one line: needed and free), instead of failing half-way
// with ENOSPC. Pure functions of the plan, except CheckFreeSpace which asks the platform.
//
// "Sure to write" is what the plan fixes before it starts: each probe file (--file-size), the
// rows of a --commits run (or its minimum commits when the budget decides), the workloads' seeded
// tables. A budget-bound SQLite run may write more on a fast disk (up to CommitOptions::max_rows
// per configuration); if that fills the filesystem, the run ends with the ENOSPC error instead.
#pragma once

#include <cstdint>
#include <string>

#include "platform/platform.h"
#include "probes/runner.h"
#include "sqlite_bench/commit_bench.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::run {

// Slack for the marker, SQLite headers, the create/rename probes' small files and metadata.
inline constexpr std::uint64_t kScratchSlackBytes = 1u << 20;
// Bytes a row takes beyond its payload (key, record header, b-tree cell), rounded up.
inline constexpr std::uint64_t kRowOverheadBytes = 64;

// The largest probe file: probes run one at a time and each removes its file when done.
std::uint64_t ProbeScratchBytes(const std::vector<probes::ProbeSpec>& specs,
                                const probes::OpOptions& options);
// Every configuration's database (they are open at once), each twice over for its rollback
// journal or WAL copy.
std::uint64_t MatrixScratchBytes(const sqlite_bench::MatrixPlan& plan);
// The seeded key-value table and the WAL-growth rows, twice over for journal or WAL.
std::uint64_t WorkloadScratchBytes(const sqlite_bench::WorkloadPlan& plan);

// The parts a plan runs; null for a part it skips.
struct ScratchParts {
  const std::vector<probes::ProbeSpec>* probe_specs = nullptr;
  probes::OpOptions op_options;
  const sqlite_bench::MatrixPlan* matrix = nullptr;
  const sqlite_bench::WorkloadPlan* workloads = nullptr;
  std::uint64_t concurrency_bytes =
      0;  // the concurrency phase's largest cell (run/concurrency_phase.h)
  // crashtest: the crash device's image, the base every state starts from and one state, each
  // as large as the image at most (sparse where nothing was written).
  std::uint64_t crashtest_bytes = 0;
};
// The selected parts' sum plus kScratchSlackBytes.
std::uint64_t ScratchNeedBytes(const ScratchParts& parts);

// "not enough free space in PATH: this run needs about N of scratch and M is free (...)", or ""
// when need fits in free.
std::string NotEnoughSpaceMessage(const std::string& path, std::uint64_t need, std::uint64_t free);

// Ok when path's filesystem has room for need bytes, or when free space cannot be read (the
// run then meets ENOSPC, if it comes, as an error). InvalidArgument with the message otherwise.
// A filesystem that shows kernel state (proc, sysfs, cgroup, devpts) has no storage to measure:
// that is refused with its own message, never as "0 B is free".
Status CheckFreeSpace(platform::Platform& platform, const std::string& path, std::uint64_t need);

// The bytes SQLite's files take inside a scratch directory beyond its path: "/" and the longest
// name a workload opens ("concurrency.db-journal"; crashsim's "crash-N/crash.db-journal").
inline constexpr std::size_t kSqliteNameBytes = 32;
// "", or why SQLite cannot work under scratch_dir: its files' names would pass limit bytes
// (SqliteMaxPathBytes), and SQLite would fail every configuration with "No such file".
std::string SqlitePathTooLongMessage(const std::string& target, const std::string& scratch_dir,
                                     std::size_t limit);

}  // namespace durprobe::run
