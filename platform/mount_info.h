// What a path really is: its mount, filesystem, block device and container context. Plain data,
// filled by InspectPath (platform/inspect.h) and read by the report room (findings, reporters).
// Empty strings and unset optionals mean "not known here", never "false".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace durprobe::platform {

// One line of /proc/self/mountinfo (proc(5)), with the kernel's octal escapes undone.
struct MountEntry {
  int id = 0;
  int parent_id = 0;
  unsigned major = 0, minor = 0;  // st_dev of files on this mount (0:N for anonymous devices)
  std::string root;               // the directory of the filesystem mounted here ("/" if whole)
  std::string mount_point;        // relative to the process's root
  std::vector<std::string> mount_options;    // per-mount: rw, nosuid, relatime, ...
  std::vector<std::string> optional_fields;  // shared:N, master:N, ...
  std::string fstype;                        // "ext4", "fuse.sshfs", "overlay", ...
  std::string source;                        // "/dev/vda1", "server:/export", "none", ...
  std::vector<std::string> super_options;    // per-superblock: data=ordered, lowerdir=..., ...
};

// statfs(2) as far as the OS tells: the type magic and "rdonly" on Linux, the type name and flags
// on macOS.
struct FsStat {
  std::uint64_t magic = 0;         // Linux f_type; 0 where the OS has no magic
  std::string type_name;           // macOS f_fstypename
  std::string mount_point;         // macOS f_mntonname
  std::string source;              // macOS f_mntfromname
  std::vector<std::string> flags;  // mount flags as option words ("rdonly", "sync", "noatime")
  std::uint64_t block_size = 0;    // f_bsize
};

// Device numbers from stat(2).
struct FileStat {
  unsigned dev_major = 0, dev_minor = 0;  // st_dev: the filesystem holding the file
  bool is_block_device = false;
  unsigned rdev_major = 0, rdev_minor = 0;  // st_rdev, for device nodes
};

// A block device as /sys/dev/block describes it. Queue attributes come from the whole disk.
struct DeviceInfo {
  std::string name;  // the device the filesystem sits on: "vda1", "loop0", "dm-0"
  std::string disk;  // its whole disk: "vda" for "vda1"; same as name for disks
  unsigned major = 0, minor = 0;
  bool partition = false;
  std::string kind;  // "disk", "partition", "loop", "dm", "md"
  std::optional<bool> rotational;
  std::string write_cache;  // "write back" (volatile cache) or "write through"
  std::optional<bool> fua;  // the device accepts Force Unit Access writes
  std::uint64_t logical_block_size = 0, physical_block_size = 0;
  std::string scheduler;          // the selected I/O scheduler
  std::uint64_t queue_depth = 0;  // queue/nr_requests: requests the block layer queues; 0 unknown
  std::string model;
  std::string serial;          // the disk's serial number where sysfs shows it
  std::string dm_name;         // device-mapper name ("vg0-root")
  std::string md_level;        // md RAID level ("raid1")
  std::string backing_file;    // loop devices: the file behind them
  std::string backing_fstype;  // ...and the filesystem that file lives on
  std::string backing_mount_point;
  std::vector<DeviceInfo> slaves;  // dm / md members, as far as sysfs shows
};

struct OverlayInfo {
  std::vector<std::string> lower_dirs;  // top first, as the kernel lists them
  std::string upper_dir, work_dir;      // empty for a read-only overlay
  // "volatile", or "fsync=volatile" as newer kernels spell it: the overlay skips every sync.
  bool volatile_mount = false;
  bool upper_visible = false;  // upperdir exists in this mount namespace
  std::string upper_fstype, upper_mount_point, upper_source;
};

// What a path is inside a container (platform/container.h decides; its NameOf spells the names).
enum class PathRole {
  kOverlayRoot,     // the container's own overlay root
  kRootFilesystem,  // a root filesystem that is not an overlay
  kBindFromHost,    // a directory of the host bound in
  kVolume,          // a managed volume directory, or a whole filesystem of its own
  kHostShare,       // a share from a VM's host (virtiofs, 9p, ...)
  kTmpfs,           // a memory filesystem
  kOtherMount,      // another mount (a nested overlay, a FUSE mount)
};
// The last enumerator, up to which NameOf's table is counted: one added after it moves this.
inline constexpr PathRole kLastPathRole = PathRole::kOtherMount;

struct ContainerInfo {
  bool in_container = false;
  std::string runtime;                // "docker", "podman", "kubernetes", "lxc", ... or ""
  std::vector<std::string> evidence;  // "/.dockerenv exists", "cgroup mentions kubepods", ...
  // What the path is inside the container; unset outside one.
  std::optional<PathRole> path_role;
  std::string path_role_reason;
};

struct MountInfo {
  std::string path;        // the resolved, absolute path that was inspected
  std::string fstype;      // as mountinfo says: "ext4", "fuse.bindfs", "virtiofs"
  std::string fs_subtype;  // the part after "fuse." ("bindfs"), else ""
  std::string source;
  std::string mount_point;
  std::string root;  // mountinfo root: the directory of the fs mounted here
  int mount_id = 0;
  unsigned dev_major = 0, dev_minor = 0;
  std::vector<std::string> mount_options;  // per mount point
  std::vector<std::string> super_options;  // per filesystem (superblock)
  std::vector<std::string> options;        // both merged, mount options first, no duplicates
  bool bind = false;      // a directory of a filesystem, not its root, is mounted here
  std::string bind_note;  // why bind is what it is, when mountinfo cannot be sure
  bool statfs_known = false;
  std::uint64_t statfs_magic = 0;
  std::string statfs_type;            // the fstype the magic stands for, or macOS f_fstypename
  std::optional<bool> statfs_agrees;  // unset when the magic is not in durprobe's table
  std::optional<OverlayInfo> overlay;
  std::optional<DeviceInfo> device;  // unset when no block device backs the mount
  std::string device_note;           // why there is no device, or how it was found
  ContainerInfo container;
  std::vector<std::string> notes;  // anything identification could not settle
  // A loop device's backing file, inspected the same way (its mount, device and so on, down to
  // the media): at most one entry, empty when there is no loop device or the file is not visible.
  std::vector<MountInfo> backing;
};

}  // namespace durprobe::platform
