// Linux statfs(2) f_type magic numbers (linux/magic.h and out-of-tree filesystems), kept as a
// pure table so the mountinfo fstype can be cross-checked on any OS and in tests.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace durprobe::platform {

// The filesystem a magic stands for ("ext4" for 0xEF53, which ext2/3/4 share), or "".
std::string_view FsTypeOfMagic(std::uint64_t magic);

// Whether a mountinfo fstype and a statfs magic name the same filesystem. Unset when the fstype
// or the magic is not in the table, so an unknown pair is never called a mismatch.
std::optional<bool> MagicAgrees(std::string_view fstype, std::uint64_t magic);

}  // namespace durprobe::platform
