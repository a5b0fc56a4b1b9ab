// The lock workload: a second writer, and a writer against a reader, with busy_timeout 0.
#pragma once

#include <string>
#include <vector>

#include "platform/platform.h"
#include "sqlite_bench/workload_result.h"

namespace durprobe::sqlite_bench {

// Both journal modes x both cases, with two threads and with two processes.
std::vector<LockResult> RunLockWorkload(platform::Platform& platform, const std::string& dir);

}  // namespace durprobe::sqlite_bench
