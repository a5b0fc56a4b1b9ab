#include "platform/posix_platform.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#if __has_include(<sys/sysmacros.h>)
#include <sys/sysmacros.h>  // major() and minor() on Linux; <sys/types.h> has them on macOS
#endif
#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <ctime>

#include "platform/interrupt.h"

namespace durprobe::platform {

Result<FileHandle> PosixPlatform::Open(const std::string& path, const OpenFlags& flags) {
  Result<int> extra = ExtraOpenBits(flags);
  if (!extra.ok()) return extra.status();
  int bits = (flags.read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC | O_NOFOLLOW | *extra;
  if (flags.create) bits |= O_CREAT;
  if (flags.create && flags.exclusive) bits |= O_EXCL;
  if (flags.truncate) bits |= O_TRUNC;
  int fd;
  do {
    fd = ::open(path.c_str(), bits, 0644);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Status::FromErrno(errno, fmt::format("open {}", path));
  FileHandle file(*this, fd);
  Status after = AfterOpen(fd, flags);
  if (!after.ok()) return after;
  return file;
}

Status PosixPlatform::Close(int fd) {
  // close(2) must not be retried on EINTR: the descriptor is gone either way.
  if (::close(fd) != 0) return Status::FromErrno(errno, "close");
  return Status::Ok();
}

Status PosixPlatform::PWrite(int fd, const void* buf, std::size_t n, std::uint64_t offset) {
  const char* p = static_cast<const char*>(buf);
  while (n > 0) {
    ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(offset));
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno(errno, "pwrite");
    }
    if (w == 0) return Status::Error("pwrite: wrote 0 bytes");
    p += w;
    n -= static_cast<std::size_t>(w);
    offset += static_cast<std::uint64_t>(w);
  }
  return Status::Ok();
}

Result<std::size_t> PosixPlatform::PRead(int fd, void* buf, std::size_t n, std::uint64_t offset) {
  ssize_t r;
  do {
    r = ::pread(fd, buf, n, static_cast<off_t>(offset));
  } while (r < 0 && errno == EINTR);
  if (r < 0) return Status::FromErrno(errno, "pread");
  return static_cast<std::size_t>(r);
}

Status PosixPlatform::Truncate(int fd, std::uint64_t size) {
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) return Status::FromErrno(errno, "ftruncate");
  return Status::Ok();
}

Status PosixPlatform::SyncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, fmt::format("open directory {}", dir));
  Status s = ::fsync(fd) == 0 ? Status::Ok()
                              : Status::FromErrno(errno, fmt::format("fsync directory {}", dir));
  ::close(fd);
  return s;
}

Status PosixPlatform::MakeDirectory(const std::string& path) {
  if (::mkdir(path.c_str(), 0700) != 0)
    return Status::FromErrno(errno, fmt::format("mkdir {}", path));
  return Status::Ok();
}

Status PosixPlatform::RemoveDirectory(const std::string& path) {
  if (::rmdir(path.c_str()) != 0) return Status::FromErrno(errno, fmt::format("rmdir {}", path));
  return Status::Ok();
}

Status PosixPlatform::Unlink(const std::string& path) {
  if (::unlink(path.c_str()) != 0) return Status::FromErrno(errno, fmt::format("unlink {}", path));
  return Status::Ok();
}

Status PosixPlatform::Rename(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) {
    return Status::FromErrno(errno, fmt::format("rename {} -> {}", from, to));
  }
  return Status::Ok();
}

PathKind PosixPlatform::KindOf(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return PathKind::kMissing;
  if (S_ISDIR(st.st_mode)) return PathKind::kDirectory;
  if (S_ISREG(st.st_mode)) return PathKind::kFile;
  return PathKind::kOther;
}

PathKind PosixPlatform::KindOfNoFollow(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return PathKind::kMissing;
  if (S_ISLNK(st.st_mode)) return PathKind::kSymlink;
  if (S_ISDIR(st.st_mode)) return PathKind::kDirectory;
  if (S_ISREG(st.st_mode)) return PathKind::kFile;
  return PathKind::kOther;
}

Result<FileStat> PosixPlatform::Stat(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Status::FromErrno(errno, "stat " + path);
  FileStat out;
  out.dev_major = major(st.st_dev);
  out.dev_minor = minor(st.st_dev);
  out.is_block_device = S_ISBLK(st.st_mode);
  out.rdev_major = major(st.st_rdev);
  out.rdev_minor = minor(st.st_rdev);
  return out;
}

Result<std::string> PosixPlatform::RealPath(const std::string& path) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf) == nullptr) {
    return Status::FromErrno(errno, fmt::format("resolve {}", path));
  }
  return std::string(buf);
}

Result<std::string> PosixPlatform::ReadTextFile(const std::string& path, std::size_t max_bytes) {
  // A FIFO blocks in open until a writer comes and in read until it writes: a signal that ends
  // the run ends the wait (Interrupted), any other EINTR is retried.
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 && errno == EINTR && InterruptSignal() != 0) {
      return Status::Interrupted(InterruptSignal());
    }
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Status::FromErrno(errno, fmt::format("open {}", path));
  std::string text;
  char buf[8192];
  while (text.size() < max_bytes) {
    ssize_t r = ::read(fd, buf, sizeof buf);
    if (r < 0 && errno == EINTR && InterruptSignal() != 0) {
      ::close(fd);
      return Status::Interrupted(InterruptSignal());
    }
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      int err = errno;
      ::close(fd);
      return Status::FromErrno(err, fmt::format("read {}", path));
    }
    if (r == 0) break;
    text.append(buf, static_cast<std::size_t>(r));
  }
  ::close(fd);
  if (text.size() > max_bytes) text.resize(max_bytes);
  return text;
}

Status PosixPlatform::WriteTextFile(const std::string& path, const std::string& text) {
  Result<FileHandle> file = Open(path, OpenFlags{.create = true, .truncate = true});
  if (!file.ok()) return file.status();
  Status s = PWrite(file->get(), text.data(), text.size(), 0);
  Status c = file->Close();
  return s.ok() ? c : s;
}

Result<FileHandle> PosixPlatform::OpenFifoWriter(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return Status::FromErrno(errno, "stat " + path);
  if (!S_ISFIFO(st.st_mode)) return Status::InvalidArgument(path + " is not a FIFO");
  int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0 && errno == ENXIO) {
    return Status::FromErrno(ENXIO, path + " is a FIFO that no process is reading");
  }
  if (fd < 0) return Status::FromErrno(errno, "open " + path);
  FileHandle file(*this, fd);
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    return Status::FromErrno(errno, "fcntl " + path);
  }
  return file;
}

Status PosixPlatform::CheckWritableDirectory(const std::string& dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) return Status::FromErrno(errno, dir);
  if (!S_ISDIR(st.st_mode)) return Status::InvalidArgument(dir + " is not a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0) return Status::FromErrno(errno, dir);
  return Status::Ok();
}

bool PosixPlatform::IsTerminal(int fd) { return ::isatty(fd) == 1; }

int PosixPlatform::TerminalColumns(int fd) {
  struct winsize size {};
  if (::isatty(fd) != 1 || ::ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

std::uint64_t PosixPlatform::NowNanos() {
  struct timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

void PosixPlatform::SleepNanos(std::uint64_t ns) {
  struct timespec ts {
    static_cast<time_t>(ns / 1000000000ull), static_cast<long>(ns % 1000000000ull)
  };
  while (::nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

void PosixPlatform::SpinNanos(std::uint64_t ns) {
  const std::uint64_t until = NowNanos() + ns;
  while (NowNanos() < until) {
  }
}

std::string PosixPlatform::WallClockIso8601() {
  std::time_t now = std::time(nullptr);
  struct tm utc;
  ::gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

SystemInfo PosixPlatform::System() {
  SystemInfo info;
  struct utsname u;
  if (::uname(&u) == 0) {
    info.host = u.nodename;
    info.os = u.sysname;
    info.kernel = u.release;
    info.machine = u.machine;
  }
  return info;
}

int PosixPlatform::ProcessId() { return static_cast<int>(::getpid()); }

std::uint32_t PosixPlatform::EffectiveUserId() { return static_cast<std::uint32_t>(::geteuid()); }

Result<std::uint64_t> PosixPlatform::StackLimitBytes() {
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_STACK, &limit) != 0) return Status::FromErrno(errno, "getrlimit");
  if (limit.rlim_cur == RLIM_INFINITY) return std::uint64_t{0};
  return static_cast<std::uint64_t>(limit.rlim_cur);
}

bool PosixPlatform::ProcessAlive(int pid) {
  return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM);
}

std::string PosixPlatform::GetEnv(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  return v == nullptr ? std::string() : std::string(v);
}

}  // namespace durprobe::platform
