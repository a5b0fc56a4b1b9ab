// The WAL-growth workload: a reader holding a snapshot while a writer commits, then
// PASSIVE and TRUNCATE checkpoints.
#pragma once

#include <string>

#include "platform/platform.h"
#include "sqlite_bench/workload_result.h"

namespace durprobe::sqlite_bench {

struct WorkloadOptions;  // sqlite_bench/workloads.h

// options.budget_ns is this workload's own share.
WalGrowthResult RunWalGrowthWorkload(platform::Platform& platform, const std::string& dir,
                                     const WorkloadOptions& options);

}  // namespace durprobe::sqlite_bench
