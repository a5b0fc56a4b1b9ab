// What kind of filesystem a mountinfo fstype is, from one table that every decision reads (the
// durability verdict, mount findings, causes, gate facts, container roles, flush counting): so
// ceph, say, is a network filesystem everywhere or nowhere. Pure; unit-tested.
#pragma once

#include <string_view>

namespace durprobe::platform {

struct FsKind {
  bool memory = false;         // files live in memory only (tmpfs): a sync reaches no device
  bool network = false;        // a server on another machine holds the data (nfs, cifs, ceph, 9p)
  bool host_share = false;     // a VM host's directory shared into the guest (virtiofs, 9p, vboxsf)
  bool fuse = false;           // served by a user-space FUSE server (fuse, fuseblk, fuse.*)
  bool copy_on_write = false;  // btrfs, zfs, bcachefs: a sync writes new blocks and metadata
  bool kernel_state = false;   // proc, sysfs, cgroup: no storage at all
  // Every file operation crosses a server or the VM host: a cost per operation, and a reference
  // probe that measures the server as much as the device.
  bool served() const { return network || host_share || fuse; }
  // Data ends on no local block device this host's flush counters can see.
  bool remote() const { return network || host_share; }
};

// The kind of fstype as mountinfo names it ("ext4", "fuse.sshfs"); an unknown name is a plain
// local filesystem (every flag false).
FsKind KindOf(std::string_view fstype);

inline bool IsMemoryFs(std::string_view fstype) { return KindOf(fstype).memory; }
inline bool IsNetworkFs(std::string_view fstype) { return KindOf(fstype).network; }
inline bool IsHostShare(std::string_view fstype) { return KindOf(fstype).host_share; }
inline bool IsKernelStateFs(std::string_view fstype) { return KindOf(fstype).kernel_state; }

}  // namespace durprobe::platform
