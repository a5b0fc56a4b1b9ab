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
#include <string_view>

#include "platform/platform.h"
#include "probes/runner.h"
#include "run/plan.h"
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
// Every configuration's database (they are open at once) with its warm-up's rows, each twice over
// for its rollback journal or WAL copy.
std::uint64_t MatrixScratchBytes(const sqlite_bench::MatrixPlan& plan);
// The seeded key-value table and the WAL-growth rows, twice over for journal or WAL.
std::uint64_t WorkloadScratchBytes(const sqlite_bench::WorkloadPlan& plan);

// The parts a plan runs; null for a part it skips.
struct ScratchParts {
  const std::vector<probes::ProbeSpec>* probe_specs = nullptr;
  probes::OpOptions op_options;
  const sqlite_bench::MatrixPlan* matrix = nullptr;
  const sqlite_bench::WorkloadPlan* workloads = nullptr;
  // The concurrency phase's largest cell (run/concurrency_phase.h).
  std::uint64_t concurrency_bytes = 0;
  // crashtest and faults: CrashDeviceScratchBytes.
  std::uint64_t crash_device_bytes = 0;
};

// mkfs.xfs refuses a device under 300 MiB: the crash device's image for xfs is this at least.
inline constexpr std::uint64_t kXfsMinImageBytes = 320ull << 20;
// The crash device's image for a filesystem of fs_type: image_bytes, or kXfsMinImageBytes for xfs.
std::uint64_t CrashImageBytes(std::string_view fs_type, std::uint64_t image_bytes);
// What the crash device keeps in scratch at most (each file sparse, so usually far less): for
// crashtest the image, the base every state starts from and one state at a time; for faults,
// one filesystem at a time, the image and its base. own_fs_type is the target's filesystem
// ("xfs", ...), made where the plan names none.
std::uint64_t CrashDeviceScratchBytes(const Plan& plan, std::string_view own_fs_type);

// The options of plan's command that make its scratch smaller, for the parts it runs, as
// "a smaller --file-size, fewer --commits" (only options the command has; "" when it has none).
std::string AskForLess(const Plan& plan, std::string_view own_fs_type);

// The rows a budget-bound configuration of plan may write so that every configuration's
// database, each row twice for its journal or WAL, fits in room bytes (an equal share each):
// the plan's max_rows or fewer, at least 1 (a configuration runs its min_commits whatever its
// max_rows). A batch sweep on a fast disk wrote rows until the volume was full and every row
// then failed.
std::uint64_t RowsThatFit(const sqlite_bench::MatrixPlan& plan, std::uint64_t room);
// The selected parts' sum plus kScratchSlackBytes.
std::uint64_t ScratchNeedBytes(const ScratchParts& parts);

// "not enough free space in PATH: this run needs about N of scratch and M is free (free some
// space, or ask for less: ASK)", or "" when need fits in free. ask: AskForLess's words.
std::string NotEnoughSpaceMessage(const std::string& path, std::uint64_t need, std::uint64_t free,
                                  const std::string& ask = "");

// Ok when path's filesystem has room for need bytes, or when free space cannot be read (the
// run then meets ENOSPC, if it comes, as an error). InvalidArgument with the message otherwise.
// A filesystem that shows kernel state (proc, sysfs, cgroup, devpts) has no storage to measure,
// and a read-only one takes no scratch: each is refused with its own message, never as "0 B is
// free".
Status CheckFreeSpace(platform::Platform& platform, const std::string& path, std::uint64_t need,
                      const std::string& ask = "");

// The bytes SQLite's files take inside a scratch directory beyond its path: "/" and the longest
// name a workload opens ("concurrency.db-journal"; crashsim's "crash-N/crash.db-journal").
inline constexpr std::size_t kSqliteNameBytes = 32;
// "", or why SQLite cannot work under scratch_dir: its files' names would pass limit bytes
// (SqliteMaxPathBytes), and SQLite would fail every configuration with "No such file".
std::string SqlitePathTooLongMessage(const std::string& target, const std::string& scratch_dir,
                                     std::size_t limit);

}  // namespace durprobe::run
