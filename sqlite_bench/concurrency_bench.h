// The concurrent mixed-load workload: N workers, threads then forked processes, under
// SQLite's defaults and under the tuned settings.
#pragma once

#include <string>
#include <vector>

#include "platform/platform.h"
#include "sqlite_bench/workload_result.h"

namespace durprobe::sqlite_bench {

struct WorkloadOptions;  // sqlite_bench/workloads.h

// options.budget_ns is this workload's own share.
// Past o.deadline_ns no variant starts after the first; each one left out is named in cut.
std::vector<ConcurrencyResult> RunConcurrencyWorkload(platform::Platform& platform,
                                                      const std::string& dir,
                                                      const WorkloadOptions& options,
                                                      std::vector<std::string>* cut = nullptr);

}  // namespace durprobe::sqlite_bench
