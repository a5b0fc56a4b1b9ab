// Linux implementation of the seam: fdatasync, O_DSYNC/O_SYNC/O_DIRECT, sync_file_range,
// pwritev2(RWF_DSYNC) and io_uring (linux_io_ring.cc).
// F_FULLFSYNC and F_BARRIERFSYNC do not exist here and report Unsupported.
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "durprobe_config.h"
#include "platform/posix_platform.h"
#if HAVE_LIBURING
#include "platform/linux_io_ring.h"
#endif

namespace durprobe::platform {
namespace {

class LinuxPlatform final : public PosixPlatform {
 public:
  Status Sync(int fd, SyncCall call, std::uint64_t offset, std::uint64_t length) override {
    int rc = -1;
    const char* what = "fsync";
    switch (call) {
      case SyncCall::kFsync:
        rc = ::fsync(fd);
        break;
      case SyncCall::kFdatasync:
        what = "fdatasync";
        rc = ::fdatasync(fd);
        break;
      case SyncCall::kSyncFileRange:
        what = "sync_file_range";
#if HAVE_SYNC_FILE_RANGE
        rc = ::sync_file_range(
            fd, static_cast<off64_t>(offset), static_cast<off64_t>(length),
            SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
        break;
#else
        return Status::Unsupported("sync_file_range is not available in this C library");
#endif
      case SyncCall::kFullFsync:
      case SyncCall::kBarrierFsync:
        return SupportsSync(call);
    }
    if (rc != 0) return Status::FromErrno(errno, what);
    return Status::Ok();
  }

  Status SupportsSync(SyncCall call) const override {
    switch (call) {
      case SyncCall::kFullFsync:
        return Status::Unsupported("F_FULLFSYNC is macOS only; on Linux fsync already flushes");
      case SyncCall::kBarrierFsync:
        return Status::Unsupported("F_BARRIERFSYNC is macOS only");
      case SyncCall::kSyncFileRange:
        return HAVE_SYNC_FILE_RANGE ? Status::Ok()
                                    : Status::Unsupported("sync_file_range is not available");
      default:
        return Status::Ok();
    }
  }

  Status SupportsOpenFlags(const OpenFlags& flags) const override {
    Result<int> bits = ExtraOpenBits(flags);
    return bits.ok() ? Status::Ok() : bits.status();
  }

  Status Allocate(int fd, std::uint64_t size) override {
#if HAVE_POSIX_FALLOCATE
    int rc = ::posix_fallocate(fd, 0, static_cast<off_t>(size));
    if (rc == 0) return Status::Ok();
    if (rc == EOPNOTSUPP || rc == EINVAL) {
      return Status::Unsupported("the filesystem cannot preallocate blocks (fallocate)");
    }
    return Status::FromErrno(rc, "posix_fallocate");
#else
    (void)fd;
    (void)size;
    return Status::Unsupported("posix_fallocate is not available");
#endif
  }

  Status PWriteDsync(int fd, const void* buf, std::size_t n, std::uint64_t offset) override {
#if HAVE_PWRITEV2 && defined(RWF_DSYNC)
    const char* p = static_cast<const char*>(buf);
    while (n > 0) {
      iovec iov{const_cast<char*>(p), n};
      ssize_t w = ::pwritev2(fd, &iov, 1, static_cast<off_t>(offset), RWF_DSYNC);
      if (w < 0) {
        int err = errno;
        if (err == EINTR) continue;
        if (err == ENOSYS || err == EOPNOTSUPP || err == EPERM) {
          return Status::Unsupported(
              fmt::format("pwritev2(RWF_DSYNC) is refused here: {} ({})", strerror(err), err));
        }
        return Status::FromErrno(err, "pwritev2(RWF_DSYNC)");
      }
      if (w == 0) return Status::Error("pwritev2: wrote 0 bytes");
      p += w;
      n -= static_cast<std::size_t>(w);
      offset += static_cast<std::uint64_t>(w);
    }
    return Status::Ok();
#else
    (void)fd, (void)buf, (void)n, (void)offset;
    return Status::Unsupported("pwritev2 with RWF_DSYNC is not in this C library");
#endif
  }

  Result<std::unique_ptr<IoRing>> MakeRing(unsigned entries) override {
#if HAVE_LIBURING
    return MakeLinuxRing(entries);
#else
    (void)entries;
    return Status::Unsupported("this build has no io_uring (liburing was not found at build time)");
#endif
  }

  Result<FsStat> StatFs(const std::string& path) override {
    struct statfs st {};
    if (::statfs(path.c_str(), &st) != 0) return Status::FromErrno(errno, "statfs " + path);
    FsStat out;
    // f_type is a signed word on some ABIs; the magic is its 32-bit pattern.
    out.magic = static_cast<std::uint32_t>(st.f_type);
    out.block_size = static_cast<std::uint64_t>(st.f_bsize);
    if ((st.f_flags & ST_RDONLY) != 0) out.flags.push_back("rdonly");
    return out;
  }

  Result<std::vector<std::uint8_t>> ReadNvmeLogPage(const std::string& name, std::uint8_t log_id,
                                                    std::uint32_t nsid,
                                                    std::size_t bytes) override {
    std::string path = "/dev/" + name;
    FileHandle fd(*this, ::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) return Status::FromErrno(errno, "open " + path);
    std::vector<std::uint8_t> page(bytes, 0);
    // Get Log Page (opcode 0x02): dword 10 holds the log id and the low 16 bits of the number of
    // dwords minus one, dword 11 the high 16 bits (NVMe base specification, Get Log Page).
    std::uint32_t numd = static_cast<std::uint32_t>(bytes / 4) - 1;
    struct nvme_admin_cmd cmd {};
    cmd.opcode = 0x02;
    cmd.nsid = nsid;
    cmd.addr = reinterpret_cast<std::uintptr_t>(page.data());
    cmd.data_len = static_cast<std::uint32_t>(bytes);
    cmd.cdw10 = log_id | ((numd & 0xffff) << 16);
    cmd.cdw11 = numd >> 16;
    int rc = ::ioctl(fd.get(), NVME_IOCTL_ADMIN_CMD, &cmd);
    if (rc < 0) return Status::FromErrno(errno, "NVMe Get Log Page on " + path);
    if (rc > 0) {
      return Status::Unsupported(
          fmt::format("{} refused log page {:#x} (NVMe status {:#x})", path, log_id, rc));
    }
    return page;
  }

  Status SetNoCopyOnWrite(const std::string& dir) override {
    FileHandle fd(*this, ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd.valid()) return Status::FromErrno(errno, "open " + dir);
    int flags = 0;
    if (::ioctl(fd.get(), FS_IOC_GETFLAGS, &flags) != 0) {
      return Status::FromErrno(errno, "FS_IOC_GETFLAGS " + dir);
    }
    flags |= FS_NOCOW_FL;
    if (::ioctl(fd.get(), FS_IOC_SETFLAGS, &flags) != 0) {
      return Status::FromErrno(errno, "chattr +C (FS_IOC_SETFLAGS) " + dir);
    }
    return Status::Ok();
  }

  Status DropCache(int fd) override {
#if HAVE_POSIX_FADVISE
    if (::fdatasync(fd) != 0) return Status::FromErrno(errno, "fdatasync before fadvise");
#endif
    return EvictCache(fd);
  }

  Status EvictCache(int fd) override {
#if HAVE_POSIX_FADVISE
    int rc = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (rc != 0) return Status::FromErrno(rc, "posix_fadvise(DONTNEED)");
    return Status::Ok();
#else
    (void)fd;
    return Status::Unsupported("posix_fadvise is not available");
#endif
  }

 protected:
  Result<int> ExtraOpenBits(const OpenFlags& flags) const override {
    int bits = 0;
    if (flags.dsync) bits |= O_DSYNC;
    if (flags.sync) bits |= O_SYNC;
    if (flags.direct) {
#if HAVE_O_DIRECT
      bits |= O_DIRECT;
#else
      return Status::Unsupported("O_DIRECT is not available in this C library");
#endif
    }
    return bits;
  }

  Status AfterOpen(int, const OpenFlags&) override { return Status::Ok(); }

  bool IsMountRoot(int dir_fd, const std::string& name) override {
    struct statx stx {};
    int at = dir_fd < 0 ? AT_FDCWD : dir_fd;
    int flags = AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | (name.empty() ? AT_EMPTY_PATH : 0);
    if (::statx(at, name.c_str(), flags, STATX_BASIC_STATS, &stx) != 0) return false;
    return (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) != 0 &&
           (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
  }

 public:
  Result<std::string> DescriptorPath(int dir_fd) override {
    std::string path = fmt::format("/proc/self/fd/{}", dir_fd);
    struct stat held {
    }, named{};
    if (::fstat(dir_fd, &held) != 0) return Status::FromErrno(errno, "fstat");
    // The path must lead back to the held directory: without /proc it names nothing (or,
    // worse, whatever a user put there).
    if (::stat(path.c_str(), &named) != 0 || named.st_dev != held.st_dev ||
        named.st_ino != held.st_ino) {
      return Status::Error(
          "/proc is not mounted: durprobe works in its scratch directory only through "
          "/proc/self/fd (mount proc on /proc)");
    }
    return path;
  }

  Result<std::string> ProcessName(int pid) override {
    Result<std::string> comm = ReadTextFile(fmt::format("/proc/{}/comm", pid), 64);
    if (!comm.ok()) return comm.status();
    while (!comm->empty() && comm->back() == '\n') comm->pop_back();
    return comm;
  }
  CpuQuota ReadCpuQuota() override { return ReadCpuQuotaAt(*this, "/proc", ""); }
  Result<CpuThrottleCount> ReadCpuThrottling(const CpuQuota& quota) override {
    return ReadCpuThrottlingAt(*this, quota);
  }
};

}  // namespace

Platform& Default() {
  static LinuxPlatform platform;
  return platform;
}

}  // namespace durprobe::platform
