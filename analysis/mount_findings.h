// Analysis of what inspect found: configurations that change what a sync means. Each finding has
// a stable code (listed in docs/findings.md), a severity and one sentence saying what to do.
#pragma once

#include <string_view>
#include <vector>

#include "analysis/plausibility.h"
#include "model/report.h"
#include "platform/fs_kinds.h"
#include "platform/mount_info.h"

namespace durprobe::analysis {

// The filesystem kinds, from platform/fs_kinds.h's one table.
using platform::IsMemoryFs;
using platform::IsNetworkFs;

// Mounted without barriers (nobarrier, barrier=0, barrier=off): syncs no longer flush the
// device's write cache.
bool BarrierOff(const platform::MountInfo& mount);

// Findings about the mount, filesystem options, device and FUSE / network layers of one path.
std::vector<model::Finding> MountFindings(const platform::MountInfo& mount);

// Findings about the process environment (LD_PRELOAD), the same for every target.
std::vector<model::Finding> EnvironmentFindings(const model::Context& context);

// What the plausibility checks may assume about the storage. Unknown (known = false) for a loop
// device, whose queue describes the loop and not the disk under its backing file, and wherever
// the device could not be resolved.
StorageFacts StorageFactsOf(const platform::MountInfo& mount);

}  // namespace durprobe::analysis
