// compare's finding for a layer whose syncs finish sooner than a disk's: a FUSE, virtiofs or
// 9p path set beside a path with a block device under it.
#pragma once

#include <vector>

#include "model/report.h"

namespace durprobe::explain {

// A sync on a layer (FUSE, virtiofs, 9p) kLayerFasterRatio or more times faster than the same
// sync on a compared path with a block device under it is evidence, as a sync faster than its
// device is for one path: a layer passes its syncs on to a disk and cannot finish them sooner
// than one, so they likely stop in the layer. Adds layer_sync_faster_than_disk to the layered
// target, once per probe (dir_fsync create, fdatasync overwrite 4 KiB; the sync call's median,
// each side with kMinEvidenceOps operations or more).
inline constexpr double kLayerFasterRatio = 4.0;
void AddLayerSyncFindings(std::vector<model::Target>& targets);

}  // namespace durprobe::explain
