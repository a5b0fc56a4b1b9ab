// The crash device: a disk whose every write and flush is recorded, so the disk as it could be
// after a power cut can be rebuilt (CrashMonkey's and dm-log-writes' idea, on loop and FUSE).
// A FUSE server in a child process (a cut is a kill) serves one image file; a loop device over it
// is the disk a filesystem is made on. The server appends each write (offset, length, data) and
// each flush (the loop driver turns a block flush, and a FUA write's, into an fsync of its backing
// file) to a log in the scratch directory, and holds written but unflushed data as a volatile
// cache does: the image file gets only what was flushed. A CrashState is one such disk rebuilt
// from the log (platform/crash_log.h), mounted on a loop device of its own.
// Linux only (linux_crash_device.cc, with the FUSE server in linux_fuse_server.cc); elsewhere
// Create says unsupported. Needs root, /dev/fuse and /dev/loop-control: Create names what is
// missing. Every loop device, mount and image file is undone by the destructors, and each loop
// device is set to free itself when its last user closes it, so a killed run leaves only mounts,
// which `durprobe clean` undoes (CleanCrashDevices).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "platform/crash_log.h"
#include "platform/platform.h"

namespace durprobe::platform {

// A fault the server injects (for the fsync-error experiments): the next `count` writes that
// touch [offset, offset + length) fail with `error` (EIO, ENOSPC) and are not cached; count 0
// fails every such write from now on. Failed writes are not in the log. With a marker (up to
// kFaultMarkerBytes), only writes that carry it somewhere match: data written with the marker
// in it is found wherever the filesystem puts it (a copy-on-write extent, the journal under
// data=journal, a database page).
inline constexpr std::size_t kFaultMarkerBytes = 16;
// The marker durprobe's fault experiments write (probes/fsync_errors.cc, sqlite_bench/
// sync_failure.cc): kFaultMarkerBytes long, no terminator.
inline constexpr std::string_view kFaultMarker{"durprobe-faulty!", kFaultMarkerBytes};
struct WriteFault {
  std::uint64_t offset = 0;
  std::uint64_t length = UINT64_MAX;
  int error = 5;  // EIO
  std::uint32_t count = 1;
  std::string marker;
  // Matching writes let through (written as any other) before the fault applies: 1 spares the
  // first copy of marked data, so the fault meets its second (data=journal's checkpoint).
  std::uint32_t skip = 0;
};

struct CrashDeviceOptions {
  std::uint64_t image_bytes = 128ull << 20;
  CacheMode mode = CacheMode::kHonest;
  // ignores-flush only: the bytes the cache holds before it writes its oldest out.
  std::uint64_t cache_bytes = 32ull << 20;
};

// A filesystem to make and mount: "ext4", "xfs" or "btrfs", and mount(8)-style data options
// ("data=journal,barrier=0"; the flags ro, nosuid, nodev, noexec, sync, noatime are understood).
struct FsSpec {
  std::string type = "ext4";
  std::string options;
  // ext4 only: mkfs's block size in bytes (-b); 0: mke2fs's choice (1 KiB on the default
  // 128 MiB image, its "small" filesystem type).
  std::uint32_t block_bytes = 0;
};

// Refuses (InvalidArgument, one line) what the crash device must never mount: a type other than
// ext4, xfs or btrfs, and ext4's errors=panic, which turns the failed writes the experiments
// inject into a kernel panic of the whole machine.
Status CheckCrashFsSpec(const FsSpec& fs);

// The kernel's log lines about a device since a point (dmesg), the words a failed mount leaves.
struct MountOutcome {
  bool mounted = false;
  std::string error;                // mount(2)'s errno text when it failed
  std::vector<std::string> kernel;  // the kernel's lines naming the device, during the mount
};

// What stands in the way of a crash device here: root, /dev/fuse, loop devices (Unsupported,
// naming the first one missing), or nothing.
Status CrashDeviceMissing(Platform& platform);

class CrashDevice {
 public:
  // Makes <scratch>/crash-image (sparse, image_bytes), starts the server, mounts it at
  // <scratch>/crash-fuse and attaches a loop device over the served file. scratch is the work
  // path of a ScratchDir (its descriptor path) and scratch_fd its open directory.
  static Result<std::unique_ptr<CrashDevice>> Create(Platform& platform, int scratch_fd,
                                                     const std::string& scratch,
                                                     const CrashDeviceOptions& options);
  virtual ~CrashDevice() = default;

  virtual const std::string& device() const = 0;  // "/dev/loopN"
  // Runs mkfs for fs.type on the device (mkfs.ext4, mkfs.xfs, mkfs.btrfs), discarding nothing,
  // then checkpoints: the log starts again from the image as mkfs left it.
  virtual Status Format(const FsSpec& fs) = 0;
  // Writes the cache out, copies the image to <scratch>/crash-base (the base of every state) and
  // restarts the log after a checkpoint record.
  virtual Status Checkpoint() = 0;
  // Mounts the device at <scratch>/crash-mnt with fs's type and options; the path to work in.
  virtual Result<std::string> Mount(const FsSpec& fs) = 0;
  virtual Status Unmount() = 0;
  // The fault applies from the next write the server receives.
  virtual Status InjectWriteFault(const WriteFault& fault) = 0;
  // Every fault injected and not yet spent is dropped: writes succeed again.
  virtual Status ClearWriteFaults() = 0;
  // Where the byte at file_offset of the open file fd (on this device's filesystem) lies on the
  // device (FIEMAP), so a fault can meet that block's write alone; an error when the block is
  // not allocated yet or its place is not known.
  virtual Result<std::uint64_t> DeviceOffset(int fd, std::uint64_t file_offset) = 0;
  // The kernel's lines naming the device since the last Mount (from /dev/kmsg, without their
  // prefix), as it wrote them; each line once.
  virtual std::vector<std::string> KernelLines() = 0;
  // The power cut: the server is killed; what was in its cache is lost, the log stays.
  virtual Status Cut() = 0;
  // The log as it is now (since the last checkpoint).
  virtual Result<CrashLog> ReadLog() = 0;
  // The log's length now, in bytes. Against a flush's CrashEvent::data_at (the end of its
  // record, written before the flush is answered) it tells what the caller did before that
  // flush was logged: a commit acknowledged at a length no greater had returned by then.
  virtual Result<std::uint64_t> LogBytes() = 0;
  // The path of the base image and of the log file, for building states.
  virtual const std::string& base_path() const = 0;
  virtual const std::string& log_path() const = 0;
};

// One crash state, built and mounted; the destructor unmounts it, detaches its loop device and
// removes its image.
class CrashState {
 public:
  // Copies base (a reflink where the filesystem has one, else a sparse copy), applies the
  // state's writes read from the log file, attaches a loop device and mounts it at
  // <scratch>/crash-state with fs (xfs gets nouuid: the state shares its base's UUID). A mount
  // that fails is not an error: outcome() says so, with the kernel's words.
  static Result<std::unique_ptr<CrashState>> Build(Platform& platform, int scratch_fd,
                                                   const std::string& scratch,
                                                   const std::string& base,
                                                   const std::string& log_file, const CrashLog& log,
                                                   const CrashStateSpec& spec, const FsSpec& fs);
  virtual ~CrashState() = default;
  virtual const MountOutcome& outcome() const = 0;
  // Where the state is mounted (empty when the mount failed).
  virtual const std::string& mount_path() const = 0;
  // Unmounts and detaches now (the destructor does it too); the status of the unmount.
  virtual Status Release() = 0;
};

// What CleanCrashDevices undid under one scratch directory whose run is gone.
struct CrashCleanup {
  std::vector<std::string> unmounted;  // mount points
  std::vector<std::string> detached;   // loop devices
};

// Unmounts the crash device's mounts (crash-*) under the scratch directory path dir and detaches
// the loop devices whose backing file is in it: what a run killed with SIGKILL leaves.
Result<CrashCleanup> CleanCrashDevices(Platform& platform, const std::string& dir);

}  // namespace durprobe::platform
