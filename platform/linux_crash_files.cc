// The crash device's files in its scratch directory (platform/linux_crash_files.h).
#include "platform/linux_crash_files.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>

namespace durprobe::platform {

std::string CrashPath(const std::string& scratch, const char* name) { return scratch + "/" + name; }

bool IsCrashName(const std::string& name) { return name.rfind("crash-", 0) == 0; }

Status MakeCrashDir(int dir_fd, const char* name) {
  if (::mkdirat(dir_fd, name, 0700) != 0 && errno != EEXIST) {
    return Status::FromErrno(errno, std::string("mkdir ") + name);
  }
  return Status::Ok();
}

Result<FileHandle> OpenCrashFile(Platform& platform, int dir_fd, const char* name, int flags) {
  int fd = ::openat(dir_fd, name, flags | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return Status::FromErrno(errno, std::string("open ") + name);
  return FileHandle(platform, fd);
}

}  // namespace durprobe::platform
