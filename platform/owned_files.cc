#include "platform/owned_files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <random>

namespace durprobe::platform {
namespace {

int OwnedAtFd(int dir_fd) { return dir_fd == kNoDirectory ? AT_FDCWD : dir_fd; }

PathKind OwnedKindOf(mode_t mode) {
  if (S_ISREG(mode)) return PathKind::kFile;
  if (S_ISDIR(mode)) return PathKind::kDirectory;
  if (S_ISLNK(mode)) return PathKind::kSymlink;
  return PathKind::kOther;
}

}  // namespace

Result<OwnedEntry> DescribeOpen(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return Status::FromErrno(errno, "fstat");
  OwnedEntry e;
  e.kind = OwnedKindOf(st.st_mode);
  e.dev = static_cast<std::uint64_t>(st.st_dev);
  e.ino = static_cast<std::uint64_t>(st.st_ino);
  e.uid = static_cast<std::uint32_t>(st.st_uid);
  e.mode = static_cast<std::uint32_t>(st.st_mode & 07777);
  e.links = static_cast<std::uint64_t>(st.st_nlink);
  e.size = static_cast<std::uint64_t>(st.st_size);
  return e;
}

Result<OwnedHandle> OpenOwnedAt(Platform& platform, int dir_fd, const std::string& name,
                                bool directory) {
  const int bits = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (directory ? O_DIRECTORY : 0);
  int fd;
  do {
    fd = ::openat(OwnedAtFd(dir_fd), name.c_str(), bits);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Status::FromErrno(errno, fmt::format("open {}", name));
  OwnedHandle out{FileHandle(platform, fd), {}};
  Result<OwnedEntry> e = DescribeOpen(fd);
  if (!e.ok()) return e.status();
  out.entry = *e;
  return out;
}

Status WritePrivateFileAt(Platform& platform, int dir_fd, const std::string& name,
                          const std::string& text) {
  int fd;
  do {
    fd = ::openat(OwnedAtFd(dir_fd), name.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Status::FromErrno(errno, fmt::format("create {}", name));
  FileHandle f(platform, fd);
  if (::fchmod(fd, 0600) != 0) return Status::FromErrno(errno, fmt::format("chmod {}", name));
  if (Status s = platform.PWrite(fd, text.data(), text.size(), 0); !s.ok()) return s;
  if (Status s = platform.Sync(fd, SyncCall::kFsync); !s.ok()) return s;
  return f.Close();
}

Status MakeOwnDirectoryAt(int dir_fd, const std::string& name) {
  if (::mkdirat(OwnedAtFd(dir_fd), name.c_str(), 0700) != 0) {
    return Status::FromErrno(errno, fmt::format("mkdir {}", name));
  }
  return Status::Ok();
}

void RandomBytes(std::span<std::uint8_t> out) {
  std::random_device rd;  // getrandom(2) or the OS's device: not a seeded generator
  for (std::size_t i = 0; i < out.size(); i += 4) {
    const unsigned v = rd();
    for (std::size_t j = 0; j < 4 && i + j < out.size(); ++j) {
      out[i + j] = static_cast<std::uint8_t>(v >> (8 * j));
    }
  }
}

Result<PrivateDirectory> MakePrivateDirectory(Platform& platform, const std::string& prefix) {
  const char* tmp = std::getenv("TMPDIR");
  std::string base = tmp != nullptr && tmp[0] == '/' ? tmp : "/tmp";
  std::string templ = base + "/" + prefix + "XXXXXX";
  if (::mkdtemp(templ.data()) == nullptr) {
    return Status::FromErrno(errno, fmt::format("make a private directory in {}", base));
  }
  PrivateDirectory d;
  d.path = templ;
  Result<FileHandle> dir = platform.OpenDirectoryAt(kNoDirectory, d.path, false);
  if (!dir.ok()) {
    ::rmdir(d.path.c_str());
    return dir.status();
  }
  d.dir = std::move(*dir);
  return d;
}

void RemovePrivateDirectory(Platform& platform, PrivateDirectory& d) {
  if (!d.dir.valid()) return;
  if (Result<std::vector<std::string>> names = platform.ListDirectoryAt(d.dir.get()); names.ok()) {
    for (const std::string& n : *names) (void)platform.UnlinkAt(d.dir.get(), n, false);
  }
  (void)d.dir.Close();
  ::rmdir(d.path.c_str());
}

}  // namespace durprobe::platform
