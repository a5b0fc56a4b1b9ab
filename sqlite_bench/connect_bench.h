// The connection-cost workload: open, one lookup and close per request, against one
// connection kept open.
#pragma once

#include <string>
#include <vector>

#include "platform/platform.h"
#include "sqlite_bench/workload_result.h"

namespace durprobe::sqlite_bench {

struct WorkloadOptions;  // sqlite_bench/workloads.h

// options.budget_ns is this workload's own share.
std::vector<ConnectResult> RunConnectWorkload(platform::Platform& platform, const std::string& dir,
                                              const WorkloadOptions& options);

}  // namespace durprobe::sqlite_bench
