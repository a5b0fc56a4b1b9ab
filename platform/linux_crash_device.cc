// The crash device on Linux (platform/crash_device.h): the FUSE server's child process, the loop
// device over the image it serves (linux_loop_device.cc), formatting and mounting it
// (linux_mount_device.cc), fault injection and the log read back. The crash states and the
// cleanup after a killed run are in linux_crash_state.cc.
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "platform/interrupt.h"
#include "platform/linux_crash_files.h"
#include "platform/linux_crash_server.h"
#include "platform/linux_loop_device.h"
#include "platform/linux_mount_device.h"
#include "platform/program.h"

namespace durprobe::platform {

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

Status DeviceErrno(const std::string& context) { return Status::FromErrno(errno, context); }

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
        base_(CrashPath(scratch_, kCrashBase)),
        log_path_(CrashPath(scratch_, kCrashLog)) {}
  ~LinuxCrashDevice() override {
    (void)Unmount();
    if (loop_) loop_->Detach();
    loop_.reset();
    StopServer();
    // Its files go with it, so another device can be made in the same scratch.
    for (const char* name : {kCrashImage, kCrashLog, kCrashBase}) ::unlinkat(scratch_fd_, name, 0);
  }

  Status Start(const CrashDeviceOptions& options) {
    Result<FileHandle> image =
        OpenCrashFile(platform_, scratch_fd_, kCrashImage, O_RDWR | O_CREAT | O_EXCL);
    if (!image.ok()) return image.status();
    if (::ftruncate(image->get(), static_cast<off_t>(options.image_bytes)) != 0) {
      return DeviceErrno("truncate crash-image");
    }
    Result<FileHandle> log =
        OpenCrashFile(platform_, scratch_fd_, kCrashLog, O_RDWR | O_CREAT | O_TRUNC);
    if (!log.ok()) return log.status();
    if (Status s = MakeCrashDir(scratch_fd_, kCrashFuseDir); !s.ok()) return s;
    Result<Pipe> control = platform_.MakePipe();
    if (!control.ok()) return control.status();
    Result<Pipe> reply = platform_.MakePipe();
    if (!reply.ok()) return reply.status();
    CrashServerConfig config;
    config.scratch_fd = scratch_fd_;
    config.mountpoint = CrashPath(scratch_, kCrashFuseDir);
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
    Result<LoopDevice> loop = LoopDevice::Attach(platform_, CrashPath(config.mountpoint, "image"));
    if (!loop.ok()) return loop.status();
    loop_ = std::make_unique<LoopDevice>(std::move(*loop));
    return Status::Ok();
  }

  const std::string& device() const override { return loop_->path(); }
  const std::string& base_path() const override { return base_; }
  const std::string& log_path() const override { return log_path_; }

  Result<std::uint64_t> LogBytes() override {
    struct stat st {};
    if (::fstatat(scratch_fd_, kCrashLog, &st, AT_SYMLINK_NOFOLLOW) != 0)
      return DeviceErrno("stat crash-log");
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
      return Status::Unsupported(
          fmt::format("{} is not installed here (not on PATH): the crash device formats {} with it",
                      argv[0], fs.type));
    }
    if (run->exit_code != 0) {
      std::string out = run->output.substr(0, run->output.find('\n'));
      return Status::Error(fmt::format("{} exited with {}: {}", argv[0], run->exit_code, out));
    }
    return Checkpoint();
  }

  Status Checkpoint() override { return Command(CrashCommand{CrashCommand::kCheckpoint}); }

  Result<std::string> Mount(const FsSpec& fs) override {
    if (Status s = MakeCrashDir(scratch_fd_, kCrashMountDir); !s.ok()) return s;
    std::string target = CrashPath(scratch_, kCrashMountDir);
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
    return UnmountPath(CrashPath(scratch_, kCrashMountDir));
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
    if (::ioctl(fd, FS_IOC_FIEMAP, map) != 0) return DeviceErrno("FIEMAP");
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
    Result<std::string> bytes = ReadWhole(platform_, scratch_fd_, kCrashLog);
    if (!bytes.ok()) return bytes.status();
    return ParseCrashLog(*bytes);
  }

  static Result<std::string> ReadWhole(Platform& platform, int dir_fd, const char* name) {
    Result<FileHandle> f = OpenCrashFile(platform, dir_fd, name, O_RDONLY);
    if (!f.ok()) return f.status();
    struct stat st;
    if (::fstat(f->get(), &st) != 0) return DeviceErrno(std::string("stat ") + name);
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
    if (mounted_fuse_) (void)UnmountPath(CrashPath(scratch_, kCrashFuseDir));
    mounted_fuse_ = false;
    ::unlinkat(scratch_fd_, kCrashFuseDir, AT_REMOVEDIR);
    ::unlinkat(scratch_fd_, kCrashMountDir, AT_REMOVEDIR);
  }

  OneCpu pin_;  // first in, last out: the server is forked on the one CPU
  Platform& platform_;
  int scratch_fd_;
  std::string scratch_, base_, log_path_;
  int pid_ = 0;
  FileHandle control_, reply_;
  std::unique_ptr<LoopDevice> loop_;
  std::unique_ptr<KernelLog> since_mount_;
  bool mounted_fuse_ = false;
  bool mounted_ = false;
};

}  // namespace

Result<std::unique_ptr<CrashDevice>> CrashDevice::Create(Platform& platform, int scratch_fd,
                                                         const std::string& scratch,
                                                         const CrashDeviceOptions& options) {
  if (Status s = CrashDeviceMissing(platform); !s.ok()) return s;
  auto device = std::make_unique<LinuxCrashDevice>(platform, scratch_fd, scratch);
  if (Status s = device->Start(options); !s.ok()) return s;
  return std::unique_ptr<CrashDevice>(std::move(device));
}

}  // namespace durprobe::platform
