// The read-path workload: primary-key lookups under several cache settings, on :memory:
// and cold after the page cache was dropped.
#pragma once

#include <string>
#include <vector>

#include "platform/platform.h"
#include "sqlite_bench/workload_result.h"

namespace durprobe::sqlite_bench {

struct WorkloadOptions;  // sqlite_bench/workloads.h

// options.budget_ns is this workload's own share.
std::vector<ReadResult> RunReadWorkload(platform::Platform& platform, const std::string& dir,
                                        const WorkloadOptions& options);

}  // namespace durprobe::sqlite_bench
