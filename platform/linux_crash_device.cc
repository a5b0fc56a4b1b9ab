// The crash device on Linux (platform/crash_device.h): the server's child process, loop devices
// (LOOP_CONFIGURE, else LOOP_SET_FD and LOOP_SET_STATUS64, always with autoclear), mkfs, mount(2)
// with the kernel's words from /dev/kmsg, the crash states, and the cleanup after a killed run.
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "platform/interrupt.h"
#include "platform/linux_crash_server.h"
#include "platform/mountinfo.h"
#include "platform/program.h"

namespace durprobe::platform {
namespace {

constexpr char kImage[] = "crash-image";
constexpr char kLog[] = "crash-log";
constexpr char kBase[] = "crash-base";
constexpr char kFuseDir[] = "crash-fuse";
constexpr char kMountDir[] = "crash-mnt";
constexpr char kStateImage[] = "crash-state.img";
constexpr char kStateDir[] = "crash-state";

std::string Join(const std::string& dir, const char* name) { return dir + "/" + name; }

Status Errno(const std::string& context) { return Status::FromErrno(errno, context); }

Status MakeDirAt(int dir_fd, const char* name) {
  if (::mkdirat(dir_fd, name, 0700) != 0 && errno != EEXIST) {
    return Errno(std::string("mkdir ") + name);
  }
  return Status::Ok();
}

Result<FileHandle> OpenAt(Platform& platform, int dir_fd, const char* name, int flags) {
  int fd = ::openat(dir_fd, name, flags | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return Errno(std::string("open ") + name);
  return FileHandle(platform, fd);
}

// A loop device attached to a file, detached when it goes (and, being autoclear, by the kernel
// once its last user closes it, should this process die first).
// The block layer merges adjacent writes that meet in its queue, so how many writes the server
// sees, and where one ends, would depend on timing: the same workload gave 48 to 51 writes from
// run to run. With merging off, each write the filesystem submits is one record, and the same
// seed rebuilds the same states. Best effort: a kernel without the knob merges as before.
void KeepWritesApart(const std::string& device) {
  const std::string knob = "/sys/block/" + device.substr(device.rfind('/') + 1) + "/queue/nomerges";
  int fd = ::open(knob.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  (void)!::write(fd, "2", 1);
  ::close(fd);
}

class Loop {
 public:
  static Result<Loop> Attach(Platform& platform, const std::string& file) {
    int control = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (control < 0) return Errno("open /dev/loop-control");
    FileHandle control_handle(platform, control);
    int backing = ::open(file.c_str(), O_RDWR | O_CLOEXEC);
    if (backing < 0) return Errno("open " + file);
    FileHandle backing_handle(platform, backing);
    for (int attempt = 0; attempt < 8; ++attempt) {  // another process may take the free one
      int n = ::ioctl(control, LOOP_CTL_GET_FREE);
      if (n < 0) return Errno("LOOP_CTL_GET_FREE");
      std::string path = fmt::format("/dev/loop{}", n);
      int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
      // A free device another process is tearing down meanwhile (its autoclear, or a loop
      // device being deleted) cannot be opened: ENXIO, or ENOENT once its node is gone. Ask for
      // the next free one, as for a device taken meanwhile.
      if (fd < 0 && (errno == ENXIO || errno == ENOENT)) continue;
      if (fd < 0) return Errno("open " + path);
      FileHandle dev(platform, fd);
      struct loop_config config;
      std::memset(&config, 0, sizeof config);
      config.fd = static_cast<std::uint32_t>(backing);
      config.info.lo_flags = LO_FLAGS_AUTOCLEAR;
      if (::ioctl(fd, LOOP_CONFIGURE, &config) == 0) {
        KeepWritesApart(path);
        return Loop(std::move(dev), path);
      }
      if (errno == EBUSY) continue;
      if (errno != EINVAL && errno != ENOTTY) return Errno("LOOP_CONFIGURE " + path);
      // Kernels before 5.8: the two-step way.
      if (::ioctl(fd, LOOP_SET_FD, backing) != 0) {
        if (errno == EBUSY) continue;
        return Errno("LOOP_SET_FD " + path);
      }
      if (::ioctl(fd, LOOP_SET_STATUS64, &config.info) != 0) {
        Status s = Errno("LOOP_SET_STATUS64 " + path);
        ::ioctl(fd, LOOP_CLR_FD, 0);
        return s;
      }
      KeepWritesApart(path);
      return Loop(std::move(dev), path);
    }
    return Status::Error("no free loop device after 8 tries (others kept taking them)");
  }
  Loop(Loop&&) = default;
  Loop& operator=(Loop&&) = default;
  ~Loop() { Detach(); }
  const std::string& path() const { return path_; }
  void Detach() {
    if (!fd_.valid()) return;
    ::ioctl(fd_.get(), LOOP_CLR_FD, 0);  // busy: the kernel frees it at the last close
    (void)fd_.Close();
  }

 private:
  Loop(FileHandle fd, std::string path) : fd_(std::move(fd)), path_(std::move(path)) {}
  FileHandle fd_;
  std::string path_;
};

struct MountArgs {
  unsigned long flags = 0;
  std::string data;
};

MountArgs ParseMountOptions(const std::string& options) {
  static const std::pair<const char*, unsigned long> kFlags[] = {
      {"ro", MS_RDONLY},        {"nosuid", MS_NOSUID},         {"nodev", MS_NODEV},
      {"noexec", MS_NOEXEC},    {"sync", MS_SYNCHRONOUS},      {"dirsync", MS_DIRSYNC},
      {"noatime", MS_NOATIME},  {"nodiratime", MS_NODIRATIME}, {"relatime", MS_RELATIME},
      {"lazytime", MS_LAZYTIME}};
  MountArgs args;
  std::size_t start = 0;
  while (start <= options.size()) {
    std::size_t comma = options.find(',', start);
    if (comma == std::string::npos) comma = options.size();
    std::string item = options.substr(start, comma - start);
    start = comma + 1;
    if (item.empty() || item == "rw" || item == "defaults") continue;
    bool flag = false;
    for (const auto& [name, bit] : kFlags) {
      if (item == name) {
        args.flags |= bit;
        flag = true;
      }
    }
    if (!flag) args.data += (args.data.empty() ? "" : ",") + item;
  }
  return args;
}

// The kernel's log from now on, to quote what it said about a device.
class KernelLog {
 public:
  explicit KernelLog(Platform& platform) {
    int fd = ::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return;
    fd_ = FileHandle(platform, fd);
    ::lseek(fd, 0, SEEK_END);
  }
  // The messages since construction that name the device ("loop5"), without their prefix.
  std::vector<std::string> LinesAbout(const std::string& device) {
    std::vector<std::string> lines;
    if (!fd_.valid()) return lines;
    std::string name = device.substr(device.find_last_of('/') + 1);
    char record[8192];
    for (;;) {
      ssize_t n = ::read(fd_.get(), record, sizeof record - 1);
      if (n < 0 && errno == EPIPE) continue;  // overwritten records: read on
      if (n <= 0) break;
      std::string text(record, static_cast<std::size_t>(n));
      std::size_t semi = text.find(';');
      std::size_t end = text.find('\n');
      if (semi == std::string::npos) continue;
      text = text.substr(semi + 1, end == std::string::npos ? std::string::npos : end - semi - 1);
      if (text.find(name) != std::string::npos) lines.push_back(text);
    }
    return lines;
  }

 private:
  FileHandle fd_;
};

MountOutcome MountDevice(Platform& platform, const std::string& device, const std::string& target,
                         const FsSpec& fs, const std::string& extra) {
  if (Status refused = CheckCrashFsSpec(fs); !refused.ok()) {
    MountOutcome refusal;
    refusal.error = refused.message();
    return refusal;
  }
  MountArgs args = ParseMountOptions(fs.options);
  if (!extra.empty()) args.data += (args.data.empty() ? "" : ",") + extra;
  KernelLog log(platform);
  MountOutcome outcome;
  if (::mount(device.c_str(), target.c_str(), fs.type.c_str(), args.flags,
              args.data.empty() ? nullptr : args.data.c_str()) == 0) {
    outcome.mounted = true;
  } else {
    outcome.error = Errno(fmt::format("mount {} ({})", device, fs.type)).message();
  }
  outcome.kernel = log.LinesAbout(device);
  return outcome;
}

// Unmounts target; a mount still busy after a few tries is detached lazily (it goes once its
// last user does), so nothing of it stays reachable.
Status UnmountPath(const std::string& target) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    if (::umount2(target.c_str(), 0) == 0) return Status::Ok();
    if (errno == EINVAL || errno == ENOENT) return Status::Ok();  // not mounted
    if (errno != EBUSY) break;
    ::usleep(50000);
  }
  if (::umount2(target.c_str(), MNT_DETACH) == 0) return Status::Ok();
  return Errno("umount " + target);
}

}  // namespace

Status CrashDeviceMissing(Platform& platform) {
  if (platform.EffectiveUserId() != 0) {
    return Status::Unsupported("the crash device needs root (loop devices and mounts)");
  }
  if (::access("/dev/fuse", R_OK | W_OK) != 0) {
    return Status::Unsupported("the crash device needs /dev/fuse: " +
                               std::string(std::strerror(errno)));
  }
  if (::access("/dev/loop-control", R_OK | W_OK) != 0) {
    return Status::Unsupported("the crash device needs loop devices (/dev/loop-control): " +
                               std::string(std::strerror(errno)));
  }
  return Status::Ok();
}

namespace {

std::vector<std::string> MkfsCommand(const FsSpec& fs, const std::string& device) {
  // Nothing discarded (the device takes no discard) and nothing left for later: ext4 would
  // otherwise zero its inode tables in the background after the first mount.
  if (fs.type == "ext4" && fs.block_bytes != 0) {
    return {"mkfs.ext4",
            "-F",
            "-q",
            "-b",
            std::to_string(fs.block_bytes),
            "-E",
            "nodiscard,lazy_itable_init=0,lazy_journal_init=0",
            device};
  }
  if (fs.type == "ext4") {
    return {"mkfs.ext4", "-F", "-q", "-E", "nodiscard,lazy_itable_init=0,lazy_journal_init=0",
            device};
  }
  if (fs.type == "xfs") return {"mkfs.xfs", "-f", "-q", "-K", device};
  if (fs.type == "btrfs") return {"mkfs.btrfs", "-f", "-q", "-K", device};
  return {};
}

// While the crash device lives, the thread that drives it (the workload) and its server run on
// one CPU: ext4's block allocator keeps a group per CPU and the journal's writes interleave with
// the data's by timing, so on two CPUs the same workload logged different writes from run to run
// (a 5 KiB write at one offset, or 1 KiB there and 4 KiB elsewhere); on one, the log was the same
// in 8 runs of 8, and the same seed chooses the same states. The mask is restored after.
class OneCpu {
 public:
  OneCpu() {
    CPU_ZERO(&before_);
    if (::sched_getaffinity(0, sizeof before_, &before_) != 0) return;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (!CPU_ISSET(cpu, &before_)) continue;
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpu, &one);
      pinned_ = ::sched_setaffinity(0, sizeof one, &one) == 0;
      return;
    }
  }
  OneCpu(const OneCpu&) = delete;
  OneCpu& operator=(const OneCpu&) = delete;
  ~OneCpu() {
    if (pinned_) (void)::sched_setaffinity(0, sizeof before_, &before_);
  }

 private:
  cpu_set_t before_;
  bool pinned_ = false;
};

class LinuxCrashDevice : public CrashDevice {
 public:
  LinuxCrashDevice(Platform& platform, int scratch_fd, std::string scratch)
      : platform_(platform),
        scratch_fd_(scratch_fd),
        scratch_(std::move(scratch)),
        base_(Join(scratch_, kBase)),
        log_path_(Join(scratch_, kLog)) {}
  ~LinuxCrashDevice() override {
    (void)Unmount();
    if (loop_) loop_->Detach();
    loop_.reset();
    StopServer();
    // Its files go with it, so another device can be made in the same scratch.
    for (const char* name : {kImage, kLog, kBase}) ::unlinkat(scratch_fd_, name, 0);
  }

  Status Start(const CrashDeviceOptions& options) {
    Result<FileHandle> image = OpenAt(platform_, scratch_fd_, kImage, O_RDWR | O_CREAT | O_EXCL);
    if (!image.ok()) return image.status();
    if (::ftruncate(image->get(), static_cast<off_t>(options.image_bytes)) != 0) {
      return Errno("truncate crash-image");
    }
    Result<FileHandle> log = OpenAt(platform_, scratch_fd_, kLog, O_RDWR | O_CREAT | O_TRUNC);
    if (!log.ok()) return log.status();
    if (Status s = MakeDirAt(scratch_fd_, kFuseDir); !s.ok()) return s;
    Result<Pipe> control = platform_.MakePipe();
    if (!control.ok()) return control.status();
    Result<Pipe> reply = platform_.MakePipe();
    if (!reply.ok()) return reply.status();
    CrashServerConfig config;
    config.scratch_fd = scratch_fd_;
    config.mountpoint = Join(scratch_, kFuseDir);
    config.image_fd = image->get();
    config.log_fd = log->get();
    config.image_bytes = options.image_bytes;
    config.mode = options.mode;
    config.cache_bytes = options.cache_bytes;
    config.control_fd = control->read.get();
    config.reply_fd = reply->write.get();
    int parent_control = control->write.get(), parent_reply = reply->read.get();
    Result<int> pid = platform_.Spawn([&config, parent_control, parent_reply] {
      ::close(parent_control);  // else the server never sees the parent's end close
      ::close(parent_reply);
      return ServeCrashImage(config);
    });
    if (!pid.ok()) return pid.status();
    pid_ = *pid;
    control_ = std::move(control->write);
    reply_ = std::move(reply->read);
    char first = 0;
    Result<std::size_t> n = platform_.ReadSome(reply_.get(), &first, 1);
    (void)reply->write.Close();
    if (!n.ok()) return n.status();
    if (*n == 0 || first != 'r') {
      std::string message = "the crash device's server did not start";
      if (first == 'e') {
        char text[512];
        Result<std::size_t> m = platform_.ReadSome(reply_.get(), text, sizeof text);
        if (m.ok()) message += ": " + std::string(text, *m);
      }
      return Status::Error(message);
    }
    mounted_fuse_ = true;
    Result<Loop> loop = Loop::Attach(platform_, Join(config.mountpoint, "image"));
    if (!loop.ok()) return loop.status();
    loop_ = std::make_unique<Loop>(std::move(*loop));
    return Status::Ok();
  }

  const std::string& device() const override { return loop_->path(); }
  const std::string& base_path() const override { return base_; }
  const std::string& log_path() const override { return log_path_; }

  Result<std::uint64_t> LogBytes() override {
    struct stat st {};
    if (::fstatat(scratch_fd_, kLog, &st, AT_SYMLINK_NOFOLLOW) != 0) return Errno("stat crash-log");
    return static_cast<std::uint64_t>(st.st_size);
  }

  Status Format(const FsSpec& fs) override {
    std::vector<std::string> argv = MkfsCommand(fs, device());
    if (argv.empty()) {
      return Status::InvalidArgument("unknown filesystem type '" + fs.type +
                                     "' for the crash device (ext4, xfs or btrfs)");
    }
    Result<ProgramRun> run = RunProgram(platform_, argv);
    if (!run.ok()) return run.status();
    // 127: the child could not exec it (a bare root, the static binary on a host without it).
    if (run->exit_code == 127) {
      return Status::Unsupported(fmt::format(
          "{} is not installed here (not on PATH): the crash device formats {} with it", argv[0],
          fs.type));
    }
    if (run->exit_code != 0) {
      std::string out = run->output.substr(0, run->output.find('\n'));
      return Status::Error(fmt::format("{} exited with {}: {}", argv[0], run->exit_code, out));
    }
    return Checkpoint();
  }

  Status Checkpoint() override { return Command(CrashCommand{CrashCommand::kCheckpoint}); }

  Result<std::string> Mount(const FsSpec& fs) override {
    if (Status s = MakeDirAt(scratch_fd_, kMountDir); !s.ok()) return s;
    std::string target = Join(scratch_, kMountDir);
    since_mount_ = std::make_unique<KernelLog>(platform_);
    MountOutcome outcome = MountDevice(platform_, device(), target, fs, "");
    if (!outcome.mounted) {
      std::string words = outcome.kernel.empty() ? "" : " (kernel: " + outcome.kernel.back() + ")";
      return Status::Error(outcome.error + words);
    }
    mounted_ = true;
    return target;
  }

  Status Unmount() override {
    if (!mounted_) return Status::Ok();
    mounted_ = false;
    return UnmountPath(Join(scratch_, kMountDir));
  }

  Status InjectWriteFault(const WriteFault& fault) override {
    CrashCommand c{CrashCommand::kFault};
    c.error = fault.error;
    c.count = fault.count;
    c.skip = fault.skip;
    c.offset = fault.offset;
    c.length = fault.length;
    if (fault.marker.size() > kFaultMarkerBytes) {
      return Status::InvalidArgument(fmt::format("a write fault's marker is {} bytes; at most {}",
                                                 fault.marker.size(), kFaultMarkerBytes));
    }
    c.marker_length = static_cast<std::uint32_t>(fault.marker.size());
    std::memcpy(c.marker, fault.marker.data(), fault.marker.size());
    return Command(c);
  }

  Status ClearWriteFaults() override { return Command(CrashCommand{CrashCommand::kClearFaults}); }

  Result<std::uint64_t> DeviceOffset(int fd, std::uint64_t file_offset) override {
    // The request and room for one extent after it (fiemap ends in a flexible array).
    alignas(struct fiemap) char buffer[sizeof(struct fiemap) + sizeof(struct fiemap_extent)] = {};
    auto* map = reinterpret_cast<struct fiemap*>(buffer);
    map->fm_start = file_offset;
    map->fm_length = 1;
    map->fm_flags = FIEMAP_FLAG_SYNC;
    map->fm_extent_count = 1;
    if (::ioctl(fd, FS_IOC_FIEMAP, map) != 0) return Errno("FIEMAP");
    const struct fiemap_extent& e = map->fm_extents[0];
    constexpr std::uint32_t kUnplaced =
        FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_DATA_INLINE;
    if (map->fm_mapped_extents == 0 || (e.fe_flags & kUnplaced) != 0 ||
        file_offset < e.fe_logical) {
      return Status::Error(fmt::format(
          "FIEMAP: the block at {} of the file has no place on the device yet", file_offset));
    }
    return e.fe_physical + (file_offset - e.fe_logical);
  }

  std::vector<std::string> KernelLines() override {
    if (since_mount_ == nullptr) return {};
    return since_mount_->LinesAbout(device());
  }

  Status Cut() override {
    if (pid_ <= 0) return Status::Error("the crash device's server is not running");
    ::kill(pid_, SIGKILL);
    (void)platform_.WaitChild(pid_);
    pid_ = 0;
    return Status::Ok();
  }

  Result<CrashLog> ReadLog() override {
    Result<std::string> bytes = ReadWhole(platform_, scratch_fd_, kLog);
    if (!bytes.ok()) return bytes.status();
    return ParseCrashLog(*bytes);
  }

  static Result<std::string> ReadWhole(Platform& platform, int dir_fd, const char* name) {
    Result<FileHandle> f = OpenAt(platform, dir_fd, name, O_RDONLY);
    if (!f.ok()) return f.status();
    struct stat st;
    if (::fstat(f->get(), &st) != 0) return Errno(std::string("stat ") + name);
    std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < bytes.size()) {
      Result<std::size_t> n = platform.PRead(f->get(), bytes.data() + got, bytes.size() - got, got);
      if (!n.ok()) return n.status();
      if (*n == 0) break;
      got += *n;
    }
    bytes.resize(got);
    return bytes;
  }

 private:
  Status Command(const CrashCommand& c) {
    if (pid_ <= 0) return Status::Error("the crash device's server is not running");
    if (Status s = platform_.WriteAll(control_.get(), &c, sizeof c); !s.ok()) return s;
    char answer = 0;
    Result<std::size_t> n = platform_.ReadSome(reply_.get(), &answer, 1);
    if (!n.ok()) return n.status();
    if (*n == 1 && answer == 'k') return Status::Ok();
    return Status::Error(
        "the crash device's server refused a command (its log or image "
        "could not be written)");
  }

  void StopServer() {
    if (pid_ > 0) {
      (void)control_.Close();  // the server unmounts and exits
      for (int i = 0; i < 100; ++i) {
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
          pid_ = 0;
          break;
        }
        ::usleep(20000);
      }
      if (pid_ > 0) (void)Cut();
    }
    if (mounted_fuse_) (void)UnmountPath(Join(scratch_, kFuseDir));
    mounted_fuse_ = false;
    ::unlinkat(scratch_fd_, kFuseDir, AT_REMOVEDIR);
    ::unlinkat(scratch_fd_, kMountDir, AT_REMOVEDIR);
  }

  OneCpu pin_;  // first in, last out: the server is forked on the one CPU
  Platform& platform_;
  int scratch_fd_;
  std::string scratch_, base_, log_path_;
  int pid_ = 0;
  FileHandle control_, reply_;
  std::unique_ptr<Loop> loop_;
  std::unique_ptr<KernelLog> since_mount_;
  bool mounted_fuse_ = false;
  bool mounted_ = false;
};

class LinuxCrashState : public CrashState {
 public:
  LinuxCrashState(int scratch_fd, std::string scratch)
      : scratch_fd_(scratch_fd), scratch_(std::move(scratch)) {}
  ~LinuxCrashState() override {
    (void)Release();
    ::unlinkat(scratch_fd_, kStateImage, 0);
  }
  const MountOutcome& outcome() const override { return outcome_; }
  const std::string& mount_path() const override { return mount_path_; }
  Status Release() override {
    Status s;
    if (!mount_path_.empty()) s = UnmountPath(mount_path_);
    mount_path_.clear();
    if (loop_) loop_->Detach();
    loop_.reset();
    return s;
  }

  Status Make(Platform& platform, const std::string& base, const std::string& log_file,
              const CrashLog& log, const CrashStateSpec& spec, const FsSpec& fs) {
    Result<std::vector<StateWrite>> writes = StateWrites(log, spec);
    if (!writes.ok()) return writes.status();
    int src = ::open(base.c_str(), O_RDONLY | O_CLOEXEC);
    if (src < 0) return Errno("open " + base);
    FileHandle src_handle(platform, src);
    Result<FileHandle> image =
        OpenAt(platform, scratch_fd_, kStateImage, O_RDWR | O_CREAT | O_TRUNC);
    if (!image.ok()) return image.status();
    struct stat st;
    if (::fstat(src, &st) != 0) return Errno("stat " + base);
    // A reflink shares the base's blocks (btrfs, xfs); elsewhere a copy of what it holds.
    if (::ioctl(image->get(), FICLONE, src) != 0) {
      if (::ftruncate(image->get(), st.st_size) != 0) return Errno("truncate crash-state.img");
      if (Status s = CopySparse(src, image->get(), static_cast<std::uint64_t>(st.st_size));
          !s.ok()) {
        return s;
      }
    }
    int logfd = ::open(log_file.c_str(), O_RDONLY | O_CLOEXEC);
    if (logfd < 0) return Errno("open " + log_file);
    FileHandle log_handle(platform, logfd);
    std::string data;
    for (const StateWrite& w : *writes) {
      data.resize(w.length);
      Result<std::size_t> n = platform.PRead(logfd, data.data(), w.length, w.data_at);
      if (!n.ok()) return n.status();
      if (*n != w.length) return Status::Error("the crash log ends inside a write's data");
      if (Status s = platform.PWrite(image->get(), data.data(), w.length, w.offset); !s.ok()) {
        return s;
      }
    }
    Result<Loop> loop = Loop::Attach(platform, Join(scratch_, kStateImage));
    if (!loop.ok()) return loop.status();
    loop_ = std::make_unique<Loop>(std::move(*loop));
    if (Status s = MakeDirAt(scratch_fd_, kStateDir); !s.ok()) return s;
    std::string target = Join(scratch_, kStateDir);
    // A state shares its base's UUID, and xfs refuses a second mount of one.
    outcome_ = MountDevice(platform, loop_->path(), target, fs, fs.type == "xfs" ? "nouuid" : "");
    if (outcome_.mounted) mount_path_ = target;
    return Status::Ok();
  }

 private:
  int scratch_fd_;
  std::string scratch_;
  std::unique_ptr<Loop> loop_;
  MountOutcome outcome_;
  std::string mount_path_;
};

bool IsCrashName(const std::string& name) { return name.rfind("crash-", 0) == 0; }

}  // namespace

Result<CrashCleanup> CleanCrashDevices(Platform& platform, const std::string& dir) {
  CrashCleanup done;
  Result<std::string> text = platform.ReadTextFile("/proc/self/mountinfo", 4 << 20);
  if (!text.ok()) return text.status();
  Result<std::vector<MountEntry>> table = ParseMountInfo(*text);
  if (!table.ok()) return table.status();
  // The filesystems on the loop devices first, then the loop devices whose backing file is in
  // dir (autoclear frees most once their filesystem is gone), then the FUSE mount they were
  // backed by: the kernel holds a FUSE mount busy while a loop device keeps its file open.
  std::vector<const MountEntry*> fuse;
  for (auto it = table->rbegin(); it != table->rend(); ++it) {
    const std::string& point = it->mount_point;
    if (point.size() <= dir.size() + 1 || point.compare(0, dir.size() + 1, dir + "/") != 0) {
      continue;
    }
    std::string name = point.substr(dir.size() + 1);
    if (name.find('/') != std::string::npos || !IsCrashName(name)) continue;
    if (it->fstype.rfind("fuse", 0) == 0) {
      fuse.push_back(&*it);
      continue;
    }
    if (Status s = UnmountPath(point); !s.ok()) return s;
    done.unmounted.push_back(point);
  }
  Result<std::vector<std::string>> blocks = platform.ListDirectory("/sys/block");
  for (const std::string& block : blocks.ok() ? *blocks : std::vector<std::string>{}) {
    if (block.rfind("loop", 0) != 0) continue;
    Result<std::string> backing =
        platform.ReadTextFile("/sys/block/" + block + "/loop/backing_file", 4096);
    if (!backing.ok()) continue;
    std::string file = *backing;
    while (!file.empty() && file.back() == '\n') file.pop_back();
    if (file.compare(0, dir.size() + 1, dir + "/") != 0) continue;
    int fd = ::open(("/dev/" + block).c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) continue;
    FileHandle handle(platform, fd);
    if (::ioctl(fd, LOOP_CLR_FD, 0) == 0) done.detached.push_back("/dev/" + block);
  }
  for (const MountEntry* m : fuse) {
    if (Status s = UnmountPath(m->mount_point); !s.ok()) return s;
    done.unmounted.push_back(m->mount_point);
  }
  return done;
}

Status CopySparse(int src_fd, int dst_fd, std::uint64_t size) {
  off_t at = 0;
  const off_t end = static_cast<off_t>(size);
  while (at < end) {
    off_t data = ::lseek(src_fd, at, SEEK_DATA);
    if (data < 0 && errno == ENXIO) break;  // only a hole is left
    if (data < 0) return Errno("seek the image's data");
    off_t hole = ::lseek(src_fd, data, SEEK_HOLE);
    if (hole < 0) return Errno("seek the image's holes");
    off_t in = data, out = data;
    while (in < hole) {
      ssize_t n =
          ::copy_file_range(src_fd, &in, dst_fd, &out, static_cast<std::size_t>(hole - in), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Errno("copy the image");
      if (n == 0) break;
    }
    at = hole;
  }
  return Status::Ok();
}

Result<std::unique_ptr<CrashDevice>> CrashDevice::Create(Platform& platform, int scratch_fd,
                                                         const std::string& scratch,
                                                         const CrashDeviceOptions& options) {
  if (Status s = CrashDeviceMissing(platform); !s.ok()) return s;
  auto device = std::make_unique<LinuxCrashDevice>(platform, scratch_fd, scratch);
  if (Status s = device->Start(options); !s.ok()) return s;
  return std::unique_ptr<CrashDevice>(std::move(device));
}

Result<std::unique_ptr<CrashState>> CrashState::Build(
    Platform& platform, int scratch_fd, const std::string& scratch, const std::string& base,
    const std::string& log_file, const CrashLog& log, const CrashStateSpec& spec,
    const FsSpec& fs) {
  if (Status s = CrashDeviceMissing(platform); !s.ok()) return s;
  auto state = std::make_unique<LinuxCrashState>(scratch_fd, scratch);
  if (Status s = state->Make(platform, base, log_file, log, spec, fs); !s.ok()) return s;
  return std::unique_ptr<CrashState>(std::move(state));
}

}  // namespace durprobe::platform
