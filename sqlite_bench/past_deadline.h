// The run's deadline as the SQLite benchmarks read it (run/deadline.h sets it in
// CommitOptions::deadline_ns and WorkloadOptions::deadline_ns): 0 is none.
#pragma once

#include <cstdint>

#include "platform/platform.h"

namespace durprobe::sqlite_bench {

inline bool PastDeadline(platform::Platform& platform, std::uint64_t deadline_ns) {
  return deadline_ns != 0 && platform.NowNanos() >= deadline_ns;
}

}  // namespace durprobe::sqlite_bench
