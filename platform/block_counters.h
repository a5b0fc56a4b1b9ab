// What a block device says it completed: /sys/class/block/NAME/stat, whose field 5 counts the
// write requests and field 16 the flush requests (Documentation/block/stat.rst), read before and
// after a timed part so a sync can be seen to reach the device (probes/flush_tally.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "platform/mount_info.h"
#include "platform/platform.h"

namespace durprobe::platform {

struct BlockCount {
  std::string name;  // the whole disk: "vda", "loop3", "nvme0n1"
  std::uint64_t writes = 0;
  std::uint64_t flushes = 0;
  bool operator==(const BlockCount&) const = default;
};

// One stat file's text: InvalidArgument when it has fewer than 16 fields (a kernel before 5.5
// counts no flushes) or a field is not a number.
Result<BlockCount> ParseBlockStat(std::string_view name, std::string_view text);

// The devices whose counters speak for a path, and how they were chosen; names empty and
// unavailable set when none can (a memory filesystem, or sysfs masked).
struct CountedDevices {
  std::vector<std::string> names;
  std::string how;          // "the device under the filesystem", "every local disk: ..."
  std::string unavailable;  // why nothing is counted
  bool operator==(const CountedDevices&) const = default;
};

// The disk under m and, for a loop device, down its backing chain (m.backing), with the members
// of a dm or md device; for a FUSE, overlay, network or unidentified mount, every local disk
// sys_root/block lists (ram and zram left out, and loop devices with no backing file); none for
// a memory filesystem.
CountedDevices DevicesToCount(Platform& platform, const std::string& sys_root, const MountInfo& m);

// The counters of names now, in their order; the first device that cannot be read fails it all.
Result<std::vector<BlockCount>> ReadBlockCounts(Platform& platform, const std::string& sys_root,
                                                const std::vector<std::string>& names);

}  // namespace durprobe::platform
