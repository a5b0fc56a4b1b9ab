#include "platform/fs_kinds.h"

#include <array>

namespace durprobe::platform {
namespace {

enum Flag : unsigned {
  kMemory = 1,
  kNetwork = 2,
  kHostShare = 4,
  kFuse = 8,
  kCopyOnWrite = 16,
  kKernelState = 32,
};

struct KindRow {
  std::string_view fstype;
  unsigned flags;
};

// One row per filesystem whose kind matters; any other "fuse.*" is a FUSE server of its own.
constexpr std::array kKinds = {
    KindRow{"tmpfs", kMemory},
    KindRow{"ramfs", kMemory},
    KindRow{"devtmpfs", kMemory},
    KindRow{"nfs", kNetwork},
    KindRow{"nfs4", kNetwork},
    KindRow{"cifs", kNetwork},
    KindRow{"smb3", kNetwork},
    KindRow{"ceph", kNetwork},
    KindRow{"glusterfs", kNetwork},
    KindRow{"lustre", kNetwork},
    KindRow{"fuse.glusterfs", kNetwork | kFuse},
    KindRow{"fuse.sshfs", kNetwork | kFuse},
    KindRow{"fuse.ceph", kNetwork | kFuse},
    KindRow{"fuse.s3fs", kNetwork | kFuse},
    // 9p speaks a network protocol to the VM's host (WSL2's /mnt, QEMU shares).
    KindRow{"9p", kNetwork | kHostShare},
    KindRow{"virtiofs", kHostShare},
    KindRow{"fakeowner", kHostShare},
    KindRow{"vboxsf", kHostShare},
    KindRow{"prl_fs", kHostShare},
    KindRow{"fuse.grpcfuse", kHostShare | kFuse},
    KindRow{"fuse.osxfs", kHostShare | kFuse},
    KindRow{"fuse.vmhgfs-fuse", kHostShare | kFuse},
    KindRow{"fuse", kFuse},
    KindRow{"fuseblk", kFuse},
    KindRow{"btrfs", kCopyOnWrite},
    KindRow{"zfs", kCopyOnWrite},
    KindRow{"bcachefs", kCopyOnWrite},
    KindRow{"proc", kKernelState},
    KindRow{"sysfs", kKernelState},
    KindRow{"devpts", kKernelState},
    KindRow{"cgroup", kKernelState},
    KindRow{"cgroup2", kKernelState},
};

FsKind FromFlags(unsigned f) {
  FsKind k;
  k.memory = (f & kMemory) != 0;
  k.network = (f & kNetwork) != 0;
  k.host_share = (f & kHostShare) != 0;
  k.fuse = (f & kFuse) != 0;
  k.copy_on_write = (f & kCopyOnWrite) != 0;
  k.kernel_state = (f & kKernelState) != 0;
  return k;
}

}  // namespace

FsKind KindOf(std::string_view fstype) {
  for (const KindRow& row : kKinds) {
    if (row.fstype == fstype) return FromFlags(row.flags);
  }
  return FromFlags(fstype.starts_with("fuse.") ? kFuse : 0);
}

}  // namespace durprobe::platform
