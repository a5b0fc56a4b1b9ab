// The lock workload: a second writer, and a writer against a reader, with busy_timeout 0.
#pragma once

#include <string>
#include <vector>

#include "platform/platform.h"
#include "sqlite_bench/workload_result.h"

namespace durprobe::sqlite_bench {

// Both journal modes x both cases, with two threads and with two processes.
// Past deadline_ns (0: none) no case starts after the first; each one left out is named in cut.
std::vector<LockResult> RunLockWorkload(platform::Platform& platform, const std::string& dir,
                                        std::uint64_t deadline_ns = 0,
                                        std::vector<std::string>* cut = nullptr);

}  // namespace durprobe::sqlite_bench
