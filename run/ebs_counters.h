// The EBS statistics of each path's device, read before and after a run (platform/ebs_stats.h):
// a path on an NVMe namespace whose log page 0xD0 is an EBS statistics page gets the change of
// its counters as targets[].ebs. Any other device, or one that refuses the read, is skipped
// silently: most devices have no such page.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/report.h"
#include "platform/ebs_stats.h"
#include "platform/platform.h"

namespace durprobe::run {

// The page of the NVMe namespace named disk ("nvme1n1"), or nullopt.
std::optional<platform::EbsStats> ReadEbsStats(platform::Platform& platform,
                                               const std::string& disk);

// One reading per path, in the plan's order (nullopt where the path has none).
std::vector<std::optional<platform::EbsStats>> ReadEbsBefore(platform::Platform& platform,
                                                             const std::vector<std::string>& paths);

// Reads again for every target with a reading before it (matched by path) and sets its ebs to
// the change, with the findings it calls for (analysis/ebs_findings.h).
void AddEbsDeltas(platform::Platform& platform, const std::vector<std::string>& paths,
                  const std::vector<std::optional<platform::EbsStats>>& before,
                  std::vector<model::Target>& targets);

}  // namespace durprobe::run
