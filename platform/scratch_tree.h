// The walks of a scratch tree that `durprobe clean` and a run's own removal make (platform/
// scratch.h): without recursion, one held descriptor per level, at most kMaxScratchDepth levels,
// so a tree made as a decoy (thousands of levels deep) neither overflows the stack nor uses up
// the descriptors; never through a symlink, never into a filesystem mounted inside.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "platform/platform.h"

namespace durprobe::platform {

// durprobe's own scratch holds a few levels at most; a deeper tree is no scratch of its making,
// and is left where it starts to be deeper.
inline constexpr std::size_t kMaxScratchDepth = 64;

// An entry on another filesystem than root_dev, or the root of a mount (a bind mount keeps dev).
bool OnAnotherMount(const EntryStat& st, std::uint64_t root_dev);

// The first mount found inside the open directory dir_fd (shown is its name for the message),
// as "shown/sub/mnt", or empty when there is none. A mount is an entry on another device than
// root_dev, or one the OS marks as a mount's root (a bind mount keeps the device). An Error when a
// directory cannot be read, or lies deeper than kMaxScratchDepth (not looked into).
Result<std::string> MountInside(Platform& platform, int dir_fd, std::uint64_t root_dev,
                                const std::string& shown);

// Removes everything inside the open directory dir_fd: files and links are unlinked (a link's
// target is never touched), directories are opened without following links and emptied first.
// The caller has checked that no mount lies inside (MountInside); a directory on another device
// found now (mounted since) is left and is an error. An entry named keep (at the top level only)
// is left for the caller: the marker, whose lock is held while the rest goes. One entry that
// cannot be removed never stops the rest: the first such failure comes back, with how many more.
Status EmptyDirectoryAt(Platform& platform, int dir_fd, std::uint64_t root_dev,
                        const std::string& shown, std::string_view keep = {});

}  // namespace durprobe::platform
