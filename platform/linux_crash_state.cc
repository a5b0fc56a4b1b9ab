// The crash states on Linux (platform/crash_device.h): a state's image rebuilt from the base and
// the writes its spec keeps, on a loop device, mounted; and the cleanup after a killed run.
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <utility>

#include "platform/linux_crash_files.h"
#include "platform/linux_crash_server.h"
#include "platform/linux_loop_device.h"
#include "platform/linux_mount_device.h"
#include "platform/mountinfo.h"

namespace durprobe::platform {
namespace {

Status CrashErrno(const std::string& context) { return Status::FromErrno(errno, context); }

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
    if (src < 0) return CrashErrno("open " + base);
    FileHandle src_handle(platform, src);
    Result<FileHandle> image =
        OpenCrashFile(platform, scratch_fd_, kStateImage, O_RDWR | O_CREAT | O_TRUNC);
    if (!image.ok()) return image.status();
    struct stat st;
    if (::fstat(src, &st) != 0) return CrashErrno("stat " + base);
    // A reflink shares the base's blocks (btrfs, xfs); elsewhere a copy of what it holds.
    if (::ioctl(image->get(), FICLONE, src) != 0) {
      if (::ftruncate(image->get(), st.st_size) != 0) return CrashErrno("truncate crash-state.img");
      if (Status s = CopySparse(src, image->get(), static_cast<std::uint64_t>(st.st_size));
          !s.ok()) {
        return s;
      }
    }
    int logfd = ::open(log_file.c_str(), O_RDONLY | O_CLOEXEC);
    if (logfd < 0) return CrashErrno("open " + log_file);
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
    Result<LoopDevice> loop = LoopDevice::Attach(platform, CrashPath(scratch_, kStateImage));
    if (!loop.ok()) return loop.status();
    loop_ = std::make_unique<LoopDevice>(std::move(*loop));
    if (Status s = MakeCrashDir(scratch_fd_, kStateDir); !s.ok()) return s;
    std::string target = CrashPath(scratch_, kStateDir);
    // A state shares its base's UUID, and xfs refuses a second mount of one.
    outcome_ = MountDevice(platform, loop_->path(), target, fs, fs.type == "xfs" ? "nouuid" : "");
    if (outcome_.mounted) mount_path_ = target;
    return Status::Ok();
  }

 private:
  int scratch_fd_;
  std::string scratch_;
  std::unique_ptr<LoopDevice> loop_;
  MountOutcome outcome_;
  std::string mount_path_;
};

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
    if (data < 0) return CrashErrno("seek the image's data");
    off_t hole = ::lseek(src_fd, data, SEEK_HOLE);
    if (hole < 0) return CrashErrno("seek the image's holes");
    off_t in = data, out = data;
    while (in < hole) {
      ssize_t n =
          ::copy_file_range(src_fd, &in, dst_fd, &out, static_cast<std::size_t>(hole - in), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return CrashErrno("copy the image");
      if (n == 0) break;
    }
    at = hole;
  }
  return Status::Ok();
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
