// `inspect`: what a path really is. One entry point per OS (linux_inspect.cc reads mountinfo,
// statfs and sysfs; darwin_inspect.cc reads statfs), built from the pure pieces in mountinfo.h,
// sysfs_block.h, container.h and statfs_mount.h.
#pragma once

#include <string>

#include "platform/mount_info.h"
#include "platform/platform.h"

namespace durprobe::platform {

// Where the kernel's views are read from; tests point them at fixture trees.
struct InspectRoots {
  std::string proc = "/proc";  // self/mountinfo, 1/cgroup, self/cgroup
  std::string sys = "/sys";    // dev/block/MAJ:MIN, class/block/NAME
  std::string root = "/";      // where .dockerenv and run/.containerenv are looked for
};

// Identifies path: its mount (fstype, source, mount point, options, bind, overlay layers and the
// filesystem under the upper layer), the statfs cross-check, the block device (partition -> disk,
// loop -> backing file and its filesystem, dm / md members) and the container context. Reads
// only. An error when the path does not resolve or no mount table entry contains it; what
// cannot be settled beyond that is said in MountInfo's notes.
Result<MountInfo> InspectPath(Platform& platform, const std::string& path,
                              const InspectRoots& roots = {});

}  // namespace durprobe::platform
