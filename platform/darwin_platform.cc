// macOS implementation of the seam. Compiled only on Apple; NOT built or tested on the project's
// Linux CI (StatFs and Stat included, written against the macOS man pages). fsync(2) on macOS does
// not flush the drive cache; F_FULLFSYNC does, F_BARRIERFSYNC only orders writes. There is no
// fdatasync in older SDKs and no O_DIRECT: F_NOCACHE stands in.
#include <fcntl.h>
#include <libproc.h>
#include <sys/mount.h>
#include <sys/param.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>

#include "durprobe_config.h"
#include "platform/posix_platform.h"

namespace durprobe::platform {
namespace {

// statfs f_flags as the option words mount(8) prints, so findings read them like Linux options.
std::vector<std::string> FlagWords(std::uint64_t flags) {
  struct Flag {
    std::uint64_t bit;
    const char* word;
  };
  static const Flag kFlags[] = {
      {MNT_RDONLY, "rdonly"},       {MNT_SYNCHRONOUS, "sync"}, {MNT_ASYNC, "async"},
      {MNT_NOEXEC, "noexec"},       {MNT_NOSUID, "nosuid"},    {MNT_NODEV, "nodev"},
      {MNT_LOCAL, "local"},         {MNT_QUOTA, "quota"},      {MNT_ROOTFS, "rootfs"},
      {MNT_JOURNALED, "journaled"}, {MNT_NOATIME, "noatime"},  {MNT_DONTBROWSE, "nobrowse"},
  };
  std::vector<std::string> words;
  for (const Flag& f : kFlags) {
    if (flags & f.bit) words.emplace_back(f.word);
  }
  return words;
}

class DarwinPlatform final : public PosixPlatform {
 public:
  Status Sync(int fd, SyncCall call, std::uint64_t, std::uint64_t) override {
    int rc = -1;
    const char* what = "fsync";
    switch (call) {
      case SyncCall::kFsync:
        rc = ::fsync(fd);
        break;
      case SyncCall::kFdatasync:
        what = "fdatasync";
#if HAVE_FDATASYNC
        rc = ::fdatasync(fd);
        break;
#else
        return Status::Unsupported("fdatasync is not available on this macOS SDK");
#endif
      case SyncCall::kFullFsync:
        what = "fcntl(F_FULLFSYNC)";
#if HAVE_F_FULLFSYNC
        rc = ::fcntl(fd, F_FULLFSYNC);
        break;
#else
        return Status::Unsupported("F_FULLFSYNC is not defined");
#endif
      case SyncCall::kBarrierFsync:
        what = "fcntl(F_BARRIERFSYNC)";
#if HAVE_F_BARRIERFSYNC
        rc = ::fcntl(fd, F_BARRIERFSYNC);
        break;
#else
        return Status::Unsupported("F_BARRIERFSYNC is not defined on this macOS SDK");
#endif
      case SyncCall::kSyncFileRange:
        return SupportsSync(call);
    }
    if (rc != 0) return Status::FromErrno(errno, what);
    return Status::Ok();
  }

  Status SupportsSync(SyncCall call) const override {
    switch (call) {
      case SyncCall::kSyncFileRange:
        return Status::Unsupported("sync_file_range is Linux only");
      case SyncCall::kFullFsync:
        return HAVE_F_FULLFSYNC ? Status::Ok() : Status::Unsupported("F_FULLFSYNC is not defined");
      case SyncCall::kBarrierFsync:
        return HAVE_F_BARRIERFSYNC ? Status::Ok()
                                   : Status::Unsupported("F_BARRIERFSYNC is not defined");
      case SyncCall::kFdatasync:
        return HAVE_FDATASYNC ? Status::Ok() : Status::Unsupported("fdatasync is not available");
      default:
        return Status::Ok();
    }
  }

  Status SupportsOpenFlags(const OpenFlags& flags) const override {
    Result<int> bits = ExtraOpenBits(flags);
    return bits.ok() ? Status::Ok() : bits.status();
  }

  Status PWriteDsync(int, const void*, std::size_t, std::uint64_t) override {
    return Status::Unsupported("pwritev2 with RWF_DSYNC is Linux only");
  }
  Result<std::unique_ptr<IoRing>> MakeRing(unsigned) override {
    return Status::Unsupported("io_uring is Linux only");
  }

  Status Allocate(int, std::uint64_t) override {
    return Status::Unsupported("preallocation (F_PREALLOCATE) is not implemented on macOS");
  }

  Result<FsStat> StatFs(const std::string& path) override {
    struct statfs st {};
    if (::statfs(path.c_str(), &st) != 0) return Status::FromErrno(errno, "statfs " + path);
    FsStat out;
    out.type_name = st.f_fstypename;
    out.mount_point = st.f_mntonname;
    out.source = st.f_mntfromname;
    out.block_size = static_cast<std::uint64_t>(st.f_bsize);
    out.flags = FlagWords(st.f_flags);
    return out;
  }

  Status DropCache(int fd) override {
    (void)fd;
    return Status::Unsupported("macOS has no posix_fadvise(DONTNEED)");
  }

  Status EvictCache(int fd) override { return DropCache(fd); }

  Result<std::vector<std::uint8_t>> ReadNvmeLogPage(const std::string&, std::uint8_t, std::uint32_t,
                                                    std::size_t) override {
    return Status::Unsupported("NVMe log pages are read on Linux only");
  }

  Status SetNoCopyOnWrite(const std::string&) override {
    return Status::Unsupported("macOS has no nodatacow flag (chattr +C is Linux's)");
  }

 protected:
  Result<int> ExtraOpenBits(const OpenFlags& flags) const override {
    int bits = 0;
    if (flags.dsync) {
#if HAVE_O_DSYNC
      bits |= O_DSYNC;
#else
      return Status::Unsupported("O_DSYNC is not defined");
#endif
    }
    if (flags.sync) bits |= O_SYNC;
    if (flags.direct && !HAVE_F_NOCACHE) return Status::Unsupported("F_NOCACHE is not defined");
    return bits;
  }

  Status AfterOpen(int fd, const OpenFlags& flags) override {
#if HAVE_F_NOCACHE
    if (flags.direct && ::fcntl(fd, F_NOCACHE, 1) != 0) {
      return Status::FromErrno(errno, "fcntl(F_NOCACHE)");
    }
#else
    (void)fd;
    (void)flags;
#endif
    return Status::Ok();
  }

 public:
  // /dev/fd/N on macOS reopens a file; it does not lead into a directory held open.
  Result<std::string> DescriptorPath(int) override {
    return Status::Unsupported("macOS has no path through a directory's descriptor");
  }

  Result<std::string> ProcessName(int pid) override {
    char name[2 * MAXCOMLEN + 1] = {};
    if (::proc_name(pid, name, sizeof name) <= 0) {
      return Status::FromErrno(errno, "proc_name " + std::to_string(pid));
    }
    return std::string(name);
  }
  // macOS has no CPU bandwidth quota a process could be throttled by.
  CpuQuota ReadCpuQuota() override {
    CpuQuota q;
    q.note = "this OS has no cgroup CPU quota";
    return q;
  }
  Result<CpuThrottleCount> ReadCpuThrottling(const CpuQuota&) override {
    return Status::Unsupported("this OS has no cgroup CPU quota");
  }
};

}  // namespace

Platform& Default() {
  static DarwinPlatform platform;
  return platform;
}

}  // namespace durprobe::platform
