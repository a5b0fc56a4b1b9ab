// Block device description from sysfs (/sys/dev/block/MAJ:MIN and what it links to). Reads only,
// never writes, and takes the sysfs root as a parameter so tests run on a fixture tree.
#pragma once

#include <string>

#include "platform/mount_info.h"
#include "platform/platform.h"

namespace durprobe::platform {

// Describes device major:minor under sys_root ("/sys"): the device's and its disk's names,
// partition or not, the disk's queue attributes (rotational, write_cache, fua, block sizes,
// scheduler), the model, a loop device's backing file, and dm / md members (up to a few levels).
// The device is looked up in /sys/dev/block, or through /sys/class/block's dev files where a
// container masks /sys/dev/block; how, when given, then says so. An error when sysfs has no
// entry for the device.
Result<DeviceInfo> DescribeBlockDevice(Platform& platform, const std::string& sys_root,
                                       unsigned major, unsigned minor, std::string* how = nullptr);

}  // namespace durprobe::platform
