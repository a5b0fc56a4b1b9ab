// Directory listing and the descriptor-relative directory calls (openat, fstatat, unlinkat,
// fdopendir): scratch removal holds its directories open, so a parent renamed during a run does
// not change what is removed.
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "platform/posix_platform.h"

namespace durprobe::platform {
namespace {

int AtFd(int dir_fd) { return dir_fd == kNoDirectory ? AT_FDCWD : dir_fd; }

PathKind KindOfMode(mode_t mode) {
  if (S_ISLNK(mode)) return PathKind::kSymlink;
  if (S_ISDIR(mode)) return PathKind::kDirectory;
  if (S_ISREG(mode)) return PathKind::kFile;
  return PathKind::kOther;
}

// Every name in d but "." and "..", then closes d.
std::vector<std::string> NamesIn(DIR* d) {
  std::vector<std::string> names;
  while (struct dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(std::move(name));
  }
  ::closedir(d);
  return names;
}

}  // namespace

Result<std::vector<std::string>> PosixPlatform::ListDirectory(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return Status::FromErrno(errno, fmt::format("opendir {}", dir));
  return NamesIn(d);
}

Result<FileHandle> PosixPlatform::OpenDirectoryAt(int dir_fd, const std::string& name,
                                                  bool follow_last) {
  int bits = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (follow_last ? 0 : O_NOFOLLOW);
  int fd;
  do {
    fd = ::openat(AtFd(dir_fd), name.c_str(), bits);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Status::FromErrno(errno, fmt::format("open directory {}", name));
  return FileHandle(*this, fd);
}

Result<EntryStat> PosixPlatform::StatAt(int dir_fd, const std::string& name) {
  struct stat st {};
  int rc = name.empty() ? ::fstat(dir_fd, &st)
                        : ::fstatat(AtFd(dir_fd), name.c_str(), &st, AT_SYMLINK_NOFOLLOW);
  if (rc != 0) return Status::FromErrno(errno, fmt::format("stat {}", name));
  EntryStat out;
  out.kind = KindOfMode(st.st_mode);
  out.dev = static_cast<std::uint64_t>(st.st_dev);
  out.ino = static_cast<std::uint64_t>(st.st_ino);
  out.mount_root = IsMountRoot(dir_fd, name);
  out.uid = static_cast<std::uint32_t>(st.st_uid);
  out.mode = static_cast<std::uint32_t>(st.st_mode & 07777);
  return out;
}

Result<std::vector<std::string>> PosixPlatform::ListDirectoryAt(int dir_fd) {
  // fdopendir takes the descriptor it is given: hand it a duplicate, so dir_fd stays the caller's.
  int copy = ::fcntl(dir_fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return Status::FromErrno(errno, "dup directory");
  DIR* d = ::fdopendir(copy);
  if (d == nullptr) {
    int err = errno;
    ::close(copy);
    return Status::FromErrno(err, "opendir");
  }
  ::rewinddir(d);  // the duplicate shares its position with dir_fd, which may have been read
  return NamesIn(d);
}

Status PosixPlatform::UnlinkAt(int dir_fd, const std::string& name, bool directory) {
  if (::unlinkat(AtFd(dir_fd), name.c_str(), directory ? AT_REMOVEDIR : 0) != 0) {
    return Status::FromErrno(errno, fmt::format("{} {}", directory ? "rmdir" : "unlink", name));
  }
  return Status::Ok();
}

Result<FileHandle> PosixPlatform::OpenFileAt(int dir_fd, const std::string& name) {
  int fd;
  do {
    fd = ::openat(AtFd(dir_fd), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Status::FromErrno(errno, fmt::format("open {}", name));
  return FileHandle(*this, fd);
}

Status PosixPlatform::TryLock(int fd) {
  int rc;
  do {
    rc = ::flock(fd, LOCK_EX | LOCK_NB);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) return Status::FromErrno(errno, "flock");
  return Status::Ok();
}

bool PosixPlatform::IsMountRoot(int /*dir_fd*/, const std::string& /*name*/) { return false; }

}  // namespace durprobe::platform
