// Pure parsing and lookup over /proc/self/mountinfo text (format in proc(5)). No I/O here, so
// tests feed snapshots of systems durprobe cannot run on (Docker Desktop, Kubernetes, NFS).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/mount_info.h"
#include "platform/status.h"

namespace durprobe::platform {

// Undoes the kernel's octal escapes (\040 space, \011 tab, \012 newline, \134 backslash).
std::string UnescapeMountField(std::string_view field);

// Every mount line of text. A line that does not follow the format is an error naming it, since
// the kernel's format is fixed and a guess would misidentify mounts.
Result<std::vector<MountEntry>> ParseMountInfo(std::string_view text);

// The mount through which the absolute, resolved path is reached, or nullptr when the table has
// none. Walks the mount tree from the root down the path's components, taking the last mount
// stacked on each point, so mounts hidden under a later mount on a parent directory lose.
const MountEntry* FindMount(const std::vector<MountEntry>& table, std::string_view path);

// True when options holds word exactly ("volatile"), or key=value with that key when word is
// "key=" ("barrier=").
bool HasOption(const std::vector<std::string>& options, std::string_view word);
// The value of key=value in options (the last one wins), if present.
std::optional<std::string> OptionValue(const std::vector<std::string>& options,
                                       std::string_view key);
// a then b, without repeating a word already present.
std::vector<std::string> MergeOptions(const std::vector<std::string>& a,
                                      const std::vector<std::string>& b);

// overlay's lowerdir / upperdir / workdir / volatile, from its superblock options.
OverlayInfo ParseOverlayOptions(const std::vector<std::string>& super_options);

// The mount part of a MountInfo for path on entry: fstype and FUSE subtype, source, mount point,
// options, bind (with a note where mountinfo cannot be sure) and overlay layers. The layers'
// own filesystems, statfs, device and container are for the caller to add.
MountInfo DescribeMount(const std::vector<MountEntry>& table, const MountEntry& entry,
                        const std::string& path);

}  // namespace durprobe::platform
