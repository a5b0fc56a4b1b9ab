#include "platform/fs_magic.h"

#include <array>

namespace durprobe::platform {
namespace {

struct MagicRow {
  std::uint64_t magic;
  std::string_view name;
};

// FUSE filesystems (fuse.*, virtiofs, fuseblk) all report FUSE's magic; devtmpfs reports tmpfs's;
// ext2/3/4 share one; CIFS reports either the SMB1 or the SMB2 value.
constexpr std::array kMagics = {
    MagicRow{0xEF53, "ext4"},          MagicRow{0x58465342, "xfs"},
    MagicRow{0x9123683E, "btrfs"},     MagicRow{0x01021994, "tmpfs"},
    MagicRow{0x858458f6, "ramfs"},     MagicRow{0x794c7630, "overlay"},
    MagicRow{0x65735546, "fuse"},      MagicRow{0x6969, "nfs"},
    MagicRow{0xFF534D42, "cifs"},      MagicRow{0xFE534D42, "cifs"},
    MagicRow{0x517B, "smb"},           MagicRow{0x01021997, "9p"},
    MagicRow{0x2fc12fc1, "zfs"},       MagicRow{0xF2F52010, "f2fs"},
    MagicRow{0x73717368, "squashfs"},  MagicRow{0xE0F5E1E2, "erofs"},
    MagicRow{0x4d44, "vfat"},          MagicRow{0x2011BAB0, "exfat"},
    MagicRow{0x5346544e, "ntfs"},      MagicRow{0x00c36400, "ceph"},
    MagicRow{0xca451a4e, "bcachefs"},  MagicRow{0x01161970, "gfs2"},
    MagicRow{0x7461636f, "ocfs2"},     MagicRow{0x9fa0, "proc"},
    MagicRow{0x62656572, "sysfs"},     MagicRow{0x1cd1, "devpts"},
    MagicRow{0x63677270, "cgroup2"},   MagicRow{0x27e0eb, "cgroup"},
    MagicRow{0x958458f6, "hugetlbfs"}, MagicRow{0x28cd3d45, "cramfs"},
    MagicRow{0x61756673, "aufs"},      MagicRow{0x0BD00BD0, "lustre"},
};

// The table name a mountinfo fstype should report.
std::string_view FamilyOf(std::string_view fstype) {
  if (fstype == "ext2" || fstype == "ext3" || fstype == "ext4") return "ext4";
  if (fstype.starts_with("fuse") || fstype == "virtiofs") return "fuse";
  if (fstype == "nfs" || fstype == "nfs4") return "nfs";
  if (fstype == "cifs" || fstype == "smb3") return "cifs";
  if (fstype == "devtmpfs") return "tmpfs";
  if (fstype == "ntfs3") return "ntfs";
  for (const MagicRow& row : kMagics) {
    if (row.name == fstype) return row.name;
  }
  return "";
}

}  // namespace

std::string_view FsTypeOfMagic(std::uint64_t magic) {
  for (const MagicRow& row : kMagics) {
    if (row.magic == magic) return row.name;
  }
  return "";
}

std::optional<bool> MagicAgrees(std::string_view fstype, std::uint64_t magic) {
  std::string_view family = FamilyOf(fstype);
  std::string_view named = FsTypeOfMagic(magic);
  if (family.empty() || named.empty()) return std::nullopt;
  return family == named;
}

}  // namespace durprobe::platform
