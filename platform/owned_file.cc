// OpenOwnedFile: the walk is openat from a held directory descriptor, so no name on the way is
// looked up twice, and the kernel never follows a symlink (O_NOFOLLOW on each component).
#include "platform/owned_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "platform/words.h"

namespace durprobe::platform {
namespace {

// A directory descriptor of the walk, closed when the walk moves on.
class DirFd {
 public:
  explicit DirFd(int fd) : fd_(fd) {}
  ~DirFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  DirFd(const DirFd&) = delete;
  DirFd& operator=(const DirFd&) = delete;
  void Reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// What is wrong with the file st describes, or "" when it may be trusted.
std::string Untrusted(const struct stat& st, std::uint64_t max_bytes) {
  if (S_ISLNK(st.st_mode)) return "is a symlink: not followed";
  if (!S_ISREG(st.st_mode)) return "is not a regular file";
  if (st.st_uid != ::geteuid() && st.st_uid != 0) {
    return fmt::format("is owned by another user (uid {}), who could have written it", st.st_uid);
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return fmt::format("is writable by group or others (mode {:04o})", st.st_mode & 07777);
  }
  if (st.st_nlink > 1) return fmt::format("has {} hard links, not one", st.st_nlink);
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    return fmt::format("holds {} bytes, more than the {} allowed", st.st_size, max_bytes);
  }
  return "";
}

}  // namespace

Result<FileHandle> OpenOwnedFile(Platform& platform, const std::string& path, bool create,
                                 std::uint64_t max_bytes) {
  std::vector<std::string> parts = PathComponents(path);
  if (parts.empty() || path.back() == '/') {
    return Status::InvalidArgument(fmt::format("{}: names no file", path));
  }
  const bool absolute = path.front() == '/';
  DirFd dir(::open(absolute ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0) return Status::FromErrno(errno, absolute ? "open /" : "open .");
  std::string walked = absolute ? "" : ".";
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    walked += "/" + parts[i];
    const int next =
        ::openat(dir.get(), parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (next < 0) {
      const int err = errno;
      struct stat st {};
      if ((err == ELOOP || err == ENOTDIR) &&
          ::fstatat(dir.get(), parts[i].c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          S_ISLNK(st.st_mode)) {
        return Status::InvalidArgument(fmt::format(
            "{}: {} is a symlink (owned by uid {}): not followed", path, walked, st.st_uid));
      }
      return Status::FromErrno(err, walked);
    }
    dir.Reset(next);
  }
  const std::string& name = parts.back();
  struct stat before {};
  bool exists = ::fstatat(dir.get(), name.c_str(), &before, AT_SYMLINK_NOFOLLOW) == 0;
  if (!exists && errno != ENOENT) return Status::FromErrno(errno, path);
  if (exists) {
    // Looked at before it is opened: a device is never opened, a FIFO never waited on.
    if (std::string why = Untrusted(before, max_bytes); !why.empty()) {
      return Status::InvalidArgument(fmt::format("{} {}", path, why));
    }
  } else if (!create) {
    return Status::FromErrno(ENOENT, path);
  }
  const int bits = O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (exists ? 0 : O_CREAT | O_EXCL);
  const int fd = ::openat(dir.get(), name.c_str(), bits, 0600);
  if (fd < 0) return Status::FromErrno(errno, path);
  FileHandle handle(platform, fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) return Status::FromErrno(errno, path);
  if (exists && (st.st_dev != before.st_dev || st.st_ino != before.st_ino)) {
    return Status::InvalidArgument(fmt::format("{} changed while it was opened", path));
  }
  if (std::string why = Untrusted(st, max_bytes); !why.empty()) {
    return Status::InvalidArgument(fmt::format("{} {}", path, why));
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return handle;
}

Result<std::uint64_t> OpenFileSize(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return Status::FromErrno(errno, "fstat");
  return static_cast<std::uint64_t>(st.st_size);
}

bool IsDiskFull(const Status& s) {
  return s.error_number() == ENOSPC || s.error_number() == EDQUOT;
}

}  // namespace durprobe::platform
