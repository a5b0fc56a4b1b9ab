// Analysis of what inspect found: configurations that change what a sync means. Each finding has
// a stable code (listed in docs/findings.md), a severity and one sentence saying what to do.
#pragma once

#include <vector>

#include "platform/mount_info.h"
#include "report/report.h"

namespace durprobe::report {

// Findings about the mount, filesystem options, device and FUSE / network layers of one path.
std::vector<Finding> MountFindings(const platform::MountInfo& mount);

// Findings about the process environment (LD_PRELOAD), the same for every target.
std::vector<Finding> EnvironmentFindings(const Context& context);

}  // namespace durprobe::report
