// `durprobe crashtest`: crashsim's commit workload on a real filesystem made on the crash device
// (platform/crash_device.h), then the disk as it could be after a power cut at each flush and
// with seeded subsets of what was still in the device's cache (platform/crash_log.h), each
// mounted (the filesystem's own recovery runs) and opened with plain SQLite: corrupt states,
// and acknowledged commits lost. Deterministic for a seed. Never prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/crash_device.h"
#include "platform/platform.h"
#include "sqlite_bench/crashsim_result.h"
#include "sqlite_bench/crashsim_workload.h"
#include "sqlite_bench/crashtest_result.h"

namespace durprobe::sqlite_bench {

struct CrashtestOptions {
  platform::FsSpec fs{.type = "", .options = ""};  // no type: the path's own (run/crashtest.h)
  platform::CacheMode mode = platform::CacheMode::kHonest;
  std::size_t states = 200;  // per configuration, at most
  std::uint64_t seed = 1;
  CrashWorkloadOptions workload{.commits = 30};
  std::uint64_t image_bytes = 128ull << 20;
  // Set: only this state is built and checked (a reported example rebuilt), its outcome kept
  // as the result's example whatever it is.
  std::optional<platform::CrashStateSpec> only_state;
  // With only_state: the log (LogDigest) the state was reported on. The workload is run again,
  // on a new filesystem each time, until it logs that (at most kLogAttempts runs); a state is
  // only rebuilt on the log it was named on.
  std::string log;
};

// Runs of the workload a rebuild (CrashtestOptions::log) tries before it gives up.
inline constexpr int kLogAttempts = 10;

struct CrashtestPlan {
  std::vector<CrashsimConfig> configs;
  CrashtestOptions options;
};

// Which acknowledged commits a state keeps in its count: commits[i] is the log's length when the
// i-th commit returned (CrashDevice::LogBytes), flush_ends[k] the end of the k-th flush's record
// (its CrashEvent::data_at). A state after_flush k stands for a cut before flush k returned
// (k = the number of flushes: after the last one): the commits acknowledged by then are those
// that returned before that flush's record was written, at a log length short of its end. A
// commit that returned at exactly that length came after the flush (the flush was the last
// thing it waited for), and may have come after it returned.
std::uint64_t AckedBefore(const std::vector<std::uint64_t>& commits,
                          const std::vector<std::uint64_t>& flush_ends, std::size_t after_flush);

// The workload's record in 16 hex digits: each event's kind, offset and length in order, and where
// in it each commit was acknowledged. Two runs with the same digest choose the same states from
// the same seed; the kernel's timing can add a flush now and then, which changes it.
std::string LogDigest(const platform::CrashLog& log, const std::vector<std::uint64_t>& acks);
// Whether text has a digest's shape (16 lower-case hex digits), as --log must.
bool IsLogDigest(std::string_view text);

// Runs each configuration on a crash device made in the scratch directory (scratch_fd, its
// work path scratch): mkfs once, then per configuration a checkpoint, the workload in a
// directory of its own, the unmount, and the states. Stops after the state under way on SIGINT
// (that result says interrupted; the configurations after it are not run).
std::vector<CrashtestResult> RunCrashtest(platform::Platform& platform, int scratch_fd,
                                          const std::string& scratch, const CrashtestPlan& plan);

}  // namespace durprobe::sqlite_bench
