// The macOS view of a mount: statfs(2) alone names the filesystem, its mount point, source and
// flags (there is no mountinfo). Pure, so a macOS snapshot is tested on Linux.
#pragma once

#include <string>

#include "platform/mount_info.h"

namespace durprobe::platform {

// Mount fields from statfs: fstype (f_fstypename), source, mount point and flags as options.
// A /dev/diskNsM source names the device; its queue attributes stay unknown (no IOKit here).
MountInfo MountFromStatfs(const FsStat& st, const std::string& path);

}  // namespace durprobe::platform
