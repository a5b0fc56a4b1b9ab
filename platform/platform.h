// The OS seam. Every system call durprobe makes goes through a Platform; tests substitute
// FaultPlatform (tests/support/fault_platform.h) to make syncs fail, writes hit ENOSPC, or syncs
// slow.
// Every method returns a Status or Result: it never throws and never prints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "platform/aligned_buffer.h"
#include "platform/cgroup_cpu.h"
#include "platform/file_handle.h"
#include "platform/io_ring.h"
#include "platform/mount_info.h"
#include "platform/status.h"

namespace durprobe::platform {

// The ways to make written data durable. Names match the JSON "primitive" values.
enum class SyncCall {
  kFsync,          // fsync(2)
  kFdatasync,      // fdatasync(2): data plus the metadata needed to read it back (size)
  kFullFsync,      // macOS fcntl(F_FULLFSYNC): asks the drive to flush its cache
  kBarrierFsync,   // macOS fcntl(F_BARRIERFSYNC): ordering barrier, not a flush
  kSyncFileRange,  // Linux sync_file_range(WAIT_BEFORE|WRITE|WAIT_AFTER): no metadata, no flush
};

struct OpenFlags {
  bool create = false;     // O_CREAT
  bool exclusive = false;  // O_EXCL (with create)
  bool truncate = false;   // O_TRUNC
  bool read_only = false;  // O_RDONLY instead of O_RDWR
  bool dsync = false;      // O_DSYNC: each write returns once its data is durable
  bool sync = false;       // O_SYNC: each write returns once data and metadata are durable
  bool direct = false;     // O_DIRECT on Linux, F_NOCACHE on macOS: bypass the page cache
};

struct SystemInfo {
  std::string host;
  std::string os;       // "Linux", "Darwin"
  std::string kernel;   // uname release
  std::string machine;  // uname machine
};

// The two ends of a pipe, each closed when its handle goes.
struct Pipe {
  FileHandle read;
  FileHandle write;
};

// What CheckSharedMapping maps: SQLite's shared-memory index grows in 32 KiB regions.
struct SharedMapping {
  std::uint64_t bytes = 32768;
  // For tests: map one page more than the file holds and touch it, which faults (SIGBUS) on every
  // filesystem, so the child's death is real.
  bool touch_past_end = false;
};

// kSymlink only from KindOfNoFollow; KindOf reports what a symlink points to.
enum class PathKind { kMissing, kDirectory, kFile, kSymlink, kOther };

// For the *At methods: dir_fd is an open directory, or kNoDirectory for a path from the working
// directory (an absolute path ignores it).
inline constexpr int kNoDirectory = -1;

// One directory entry as it is (never through a symlink), so scratch removal can check that a
// directory is still the one it made (dev + ino) and never enter a filesystem mounted inside.
struct EntryStat {
  PathKind kind = PathKind::kMissing;  // kSymlink for a link
  std::uint64_t dev = 0;
  std::uint64_t ino = 0;
  // The entry is the root of a mount (Linux statx STATX_ATTR_MOUNT_ROOT; elsewhere only a device
  // change shows it). A bind mount of the same filesystem keeps dev, so dev alone is not enough.
  bool mount_root = false;
  std::uint32_t uid = 0;   // the owner
  std::uint32_t mode = 0;  // the permission bits (st_mode & 07777)
};

// Where a destination path leads (ResolveDestination).
struct DestinationFile {
  std::string file;                    // the path reached, after the symlinks followed
  PathKind kind = PathKind::kMissing;  // what is there now (kMissing: the name is free)
  bool through_symlink = false;        // a symlink was followed on the way
};

class Platform {
 public:
  virtual ~Platform() = default;

  // Files. Open returns the descriptor in a FileHandle that closes it through this Platform, or
  // the errno with the path. The descriptor is close-on-exec. Direct/dsync/sync flags the OS lacks
  // return Unsupported with the reason instead of opening without them. The int methods below
  // take the handle's get().
  // Never follows a symlink as the last component (O_NOFOLLOW: ELOOP): every file durprobe opens
  // this way is one it makes inside its scratch directory.
  virtual Result<FileHandle> Open(const std::string& path, const OpenFlags& flags) = 0;
  // Closes fd once, never retried (the descriptor is gone either way); FileHandle calls it.
  virtual Status Close(int fd) = 0;
  // Writes all n bytes at offset, retrying short writes; ENOSPC and EIO come back as errors.
  virtual Status PWrite(int fd, const void* buf, std::size_t n, std::uint64_t offset) = 0;
  // Reads up to n bytes at offset; returns how many were read (0 at end of file).
  virtual Result<std::size_t> PRead(int fd, void* buf, std::size_t n, std::uint64_t offset) = 0;
  // Reserves blocks for [0, size) without writing them (posix_fallocate): the file's size becomes
  // size and its blocks are allocated but unwritten. Unsupported when the filesystem cannot
  // reserve blocks (the caller decides whether a sparse file will do).
  virtual Status Allocate(int fd, std::uint64_t size) = 0;
  virtual Status Truncate(int fd, std::uint64_t size) = 0;
  // Issues one sync call on fd. For kSyncFileRange, [offset, offset+length) is the range.
  // A failure is reported once, as it happened: callers never retry a failed sync.
  virtual Status Sync(int fd, SyncCall call, std::uint64_t offset = 0,
                      std::uint64_t length = 0) = 0;
  // Whether this OS offers the call or flag at all; Unsupported carries the reason.
  virtual Status SupportsSync(SyncCall call) const = 0;
  virtual Status SupportsOpenFlags(const OpenFlags& flags) const = 0;
  // Drops the file's cached pages (posix_fadvise DONTNEED) after syncing it; Unsupported if absent.
  virtual Status DropCache(int fd) = 0;
  // Drops the file's clean cached pages (posix_fadvise DONTNEED) without syncing it first: a
  // dirty page stays. Unsupported where absent.
  virtual Status EvictCache(int fd) = 0;
  // Writes all n bytes at offset with pwritev2(RWF_DSYNC): each write returns once its data is
  // durable (a FUA write where the device has FUA, else a write and a cache flush). Unsupported
  // with the reason when the kernel, the filesystem or seccomp refuses it (ENOSYS, EOPNOTSUPP,
  // EPERM); other failures as PWrite's, never retried.
  virtual Status PWriteDsync(int fd, const void* buf, std::size_t n, std::uint64_t offset) = 0;
  // An io_uring with room for `entries` operations (platform/io_ring.h). Unsupported with the
  // reason where the kernel lacks io_uring (ENOSYS), a sysctl or seccomp refuses it (EPERM,
  // EACCES), or the OS or this build has none.
  virtual Result<std::unique_ptr<IoRing>> MakeRing(unsigned entries) = 0;

  // Directories and names.
  virtual Status SyncDirectory(const std::string& dir) = 0;
  virtual Status MakeDirectory(const std::string& path) = 0;
  virtual Status RemoveDirectory(const std::string& path) = 0;  // must be empty
  virtual Status Unlink(const std::string& path) = 0;
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  // Names in dir, without "." and "..".
  virtual Result<std::vector<std::string>> ListDirectory(const std::string& dir) = 0;
  virtual PathKind KindOf(const std::string& path) = 0;
  // The entry itself (lstat): a symlink is kSymlink, whatever it points to. Scratch handling uses
  // this so it never follows a link out of a scratch directory.
  virtual PathKind KindOfNoFollow(const std::string& path) = 0;
  // Absolute path with symlinks and ".." resolved; errno text when the path does not exist.
  virtual Result<std::string> RealPath(const std::string& path) = 0;
  virtual Result<std::string> ReadTextFile(const std::string& path, std::size_t max_bytes) = 0;
  virtual Status WriteTextFile(const std::string& path, const std::string& text) = 0;
  // Writes text to a temporary file in path's directory and renames it over path, so a reader
  // sees the old file or the new one, never a partial one (the file is not synced). On failure
  // the temporary file is removed and path is untouched. A path that exists and is not a regular
  // file (/dev/null, a FIFO) is written in place instead of being replaced. The path is walked
  // as ResolveDestination walks it (never through another user's symlink, the same refusal);
  // the temporary file (NAME.durprobe-tmp-RANDOM) is created O_EXCL|O_NOFOLLOW in the directory
  // reached, held open, and renamed onto the name reached there, never onto a link's target
  // looked up again.
  virtual Status ReplaceFileAtomically(const std::string& path, const std::string& text) = 0;
  // Where a report written to path lands, walked one directory at a time without letting the
  // kernel follow a symlink: a symlink on the way is followed only when the running user or root
  // owns it; one owned by anyone else is InvalidArgument ("is a symlink owned by another user
  // (uid N): not followed ..."), as its owner could point it at any file. The errno with the
  // component when a directory on the way is missing or cannot be searched.
  virtual Result<DestinationFile> ResolveDestination(const std::string& path) = 0;
  // Descriptor-relative directory work, so a rename of a parent during a run cannot send removal
  // to another place. OpenDirectoryAt opens name under dir_fd read-only as a directory; with
  // follow_last false a symlink as the last component is refused (ELOOP/ENOTDIR).
  virtual Result<FileHandle> OpenDirectoryAt(int dir_fd, const std::string& name,
                                             bool follow_last) = 0;
  // The entry name under dir_fd (lstat-like); an empty name is dir_fd itself.
  virtual Result<EntryStat> StatAt(int dir_fd, const std::string& name) = 0;
  // A path that names the open directory dir_fd itself rather than its name: on Linux
  // /proc/self/fd/<dir_fd>, which the kernel resolves to the directory held open wherever it was
  // moved and whatever took its name; a path under it stays inside that directory (in this
  // process and in its forked children, which inherit dir_fd). Unsupported where the OS has no
  // such path (macOS); an Error when it does not lead back to dir_fd (/proc not mounted).
  virtual Result<std::string> DescriptorPath(int dir_fd) = 0;
  // flock(LOCK_EX | LOCK_NB) on fd: Ok when taken (held until the last descriptor of that open
  // file closes, forked children's copies included); an Error with EWOULDBLOCK when another open
  // file holds it.
  virtual Status TryLock(int fd) = 0;
  // Names in the open directory dir_fd, without "." and ".."; dir_fd stays open and usable.
  virtual Result<std::vector<std::string>> ListDirectoryAt(int dir_fd) = 0;
  // unlinkat: a file or symlink, or with directory an empty directory.
  virtual Status UnlinkAt(int dir_fd, const std::string& name, bool directory) = 0;
  // Opens name under dir_fd for reading, refusing a symlink as the last component.
  virtual Result<FileHandle> OpenFileAt(int dir_fd, const std::string& name) = 0;
  // The write end of the FIFO at path, opened without waiting for a reader: ENXIO ("no process
  // is reading") at once when none has it open, never a wait with no limit. Writes on the
  // handle block as on any pipe. InvalidArgument when path is not a FIFO.
  virtual Result<FileHandle> OpenFifoWriter(const std::string& path) = 0;
  // Ok when dir exists, is a directory, and this process may create files in it (access W_OK|X_OK);
  // otherwise the reason with the path.
  virtual Status CheckWritableDirectory(const std::string& dir) = 0;
  // Whether fd (1: stdout, 2: stderr) is a terminal, for progress lines.
  virtual bool IsTerminal(int fd) = 0;
  // The columns of the terminal on fd (ioctl TIOCGWINSZ), or 0 when fd is no terminal or the
  // terminal does not say.
  virtual int TerminalColumns(int fd) = 0;

  // Filesystems (for inspect). statfs(2) of path: the type magic on Linux; on macOS the type
  // name, mount point, source and flags. The errno with the path on failure.
  virtual Result<FsStat> StatFs(const std::string& path) = 0;
  // stat(2) of path, following symlinks: the device holding it, and st_rdev for device nodes.
  virtual Result<FileStat> Stat(const std::string& path) = 0;
  // An NVMe log page (admin command Get Log Page, through the admin-command ioctl) of the
  // namespace device /dev/NAME, bytes long, for namespace nsid. Unsupported where the OS has no
  // such ioctl; the errno with the device when it cannot be opened or refuses the command (not
  // NVMe, no permission, no such page).
  virtual Result<std::vector<std::uint8_t>> ReadNvmeLogPage(const std::string& name,
                                                            std::uint8_t log_id, std::uint32_t nsid,
                                                            std::size_t bytes) = 0;
  // Marks an empty directory so files created in it are not copied on write (chattr +C,
  // FS_NOCOW_FL: btrfs nodatacow). Unsupported where the OS or the filesystem has no such flag.
  virtual Status SetNoCopyOnWrite(const std::string& dir) = 0;

  // Time and identity.
  virtual std::uint64_t NowNanos() = 0;  // monotonic clock
  virtual void SleepNanos(std::uint64_t ns) = 0;
  // Waits ns on the CPU, reading the clock, so the CPU never goes idle: a paced probe's wait
  // between operations, as a busy server's thread waits for its next request (an idle virtual CPU
  // wakes late and adds that to the next sync's latency; docs/accuracy.md, "Pacing").
  virtual void SpinNanos(std::uint64_t ns) = 0;
  // A second thread this one exchanges messages with, as a database client and its server do
  // between commits (the postgres-wal preset's one-client probe; docs/accuracy.md): in each
  // round trip this side spins side_ns on the CPU and sends a message, the partner spins side_ns
  // and answers, and this side sleeps until the answer arrives, so each side is asleep while the
  // other works. The partner stops when the returned object is destroyed.
  class Partner {
   public:
    virtual ~Partner() = default;
    virtual Status RoundTrip(std::uint64_t side_ns) = 0;
  };
  virtual Result<std::unique_ptr<Partner>> StartPartner() = 0;
  // The CPU limit (CFS quota) of this process's cgroup and its ancestors, the tightest one
  // (platform/cgroup_cpu.h): version empty, with the reason in note, where the OS has no cgroups
  // or none is visible. Never fails.
  virtual CpuQuota ReadCpuQuota() = 0;
  // The throttling counters (cpu.stat) of the cgroups quota found limited, summed. Unsupported
  // without a limit; the error with the file when a counter cannot be read.
  virtual Result<CpuThrottleCount> ReadCpuThrottling(const CpuQuota& quota) = 0;
  virtual std::string WallClockIso8601() = 0;
  virtual SystemInfo System() = 0;
  virtual int ProcessId() = 0;
  virtual std::uint32_t EffectiveUserId() = 0;
  // The soft limit on the main thread's stack (RLIMIT_STACK) in bytes; 0 when unlimited.
  virtual Result<std::uint64_t> StackLimitBytes() = 0;
  // True when a process with this id exists (kill(pid, 0)), so `clean` spares live runs.
  virtual bool ProcessAlive(int pid) = 0;
  // The short name of a running process's program (Linux /proc/PID/comm, macOS proc_name), so
  // `clean` can tell a live durprobe from an unrelated process that reused the pid. An error
  // when the process is gone or its name cannot be read.
  virtual Result<std::string> ProcessName(int pid) = 0;
  // Optional value of an environment variable ("" when unset).
  virtual std::string GetEnv(const std::string& name) = 0;

  // File size in bytes (stat); the errno with the path when it cannot be read. A missing file is
  // an error whose error_number() is ENOENT, so callers can treat "absent" as 0 when that fits.
  virtual Result<std::uint64_t> FileSize(const std::string& path) = 0;
  // Bytes an unprivileged writer may still allocate on the filesystem holding path (statvfs
  // f_bavail x f_frsize); the errno with the path on failure.
  virtual Result<std::uint64_t> FreeBytes(const std::string& path) = 0;

  // Child processes, for workloads that must meet SQLite from separate processes the way
  // PHP-FPM or multi-worker servers do (file locks are per process, not per thread).
  // A pipe. Both ends are close-on-exec, so a program a child execs inherits neither; a child
  // that must pass one to such a program dup2s it onto the number it expects (dup2 clears the
  // flag on the copy). A forked child (Spawn) still has both.
  virtual Result<Pipe> MakePipe() = 0;
  // Writes all n bytes to a pipe (no offset), retrying short writes and EINTR. A closed read end
  // is an EPIPE error, never a SIGPIPE for the run. Interrupted(signal) when EINTR comes with
  // InterruptSignal() set.
  virtual Status WriteAll(int fd, const void* buf, std::size_t n) = 0;
  // Reads up to n bytes from a pipe; 0 at end of stream (every write end closed).
  // Interrupted(signal) as soon as InterruptSignal() is set, even with nothing to read.
  virtual Result<std::size_t> ReadSome(int fd, void* buf, std::size_t n) = 0;
  // Forks. The child runs body and exits with its return value at once (_exit: no atexit
  // handlers, no stdio flush), never returning; the parent gets the child's id. The caller must
  // not hold open SQLite connections across the fork (SQLite forbids using them in the child).
  // The child inherits every descriptor (close-on-exec does not act without exec): body closes
  // those it does not need. Where the OS allows (Linux), the child is killed when its parent dies.
  virtual Result<int> Spawn(const std::function<int()>& body) = 0;
  // Waits for a child from Spawn: its exit code, or an error naming the signal that killed it.
  // When InterruptSignal() is set (before or during the wait) the child is killed and reaped,
  // and the result is Interrupted(signal).
  virtual Result<int> WaitChild(int pid) = 0;

  // Whether a file in dir can be mapped shared the way SQLite maps a WAL's shared-memory index
  // (the -shm file), tried where a failure cannot kill the run: a forked child creates a file in
  // dir, extends it as SQLite's unix VFS does (writing the last byte of each page), maps it
  // MAP_SHARED, writes and reads back every page, and unmaps it; the parent waits and removes
  // the file. Ok when the child got through; Unsupported with the failing call and its errno
  // (SQLite would fail the same way, with SQLITE_IOERR_SHMSIZE or _SHMMAP); an Error naming the
  // signal when the child was killed (SIGBUS: a page of the mapping could not be faulted in, which
  // in SQLite kills the process); Interrupted as WaitChild.
  virtual Status CheckSharedMapping(const std::string& dir, const SharedMapping& mapping) = 0;
};

// The real implementation for the OS this binary was built for.
Platform& Default();

}  // namespace durprobe::platform
