// File sizes, free space, pipes and child processes on POSIX systems (the process variants of the
// SQLite lock and concurrency workloads).
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "durprobe_config.h"
#include "platform/posix_platform.h"

namespace durprobe::platform {

Result<std::uint64_t> PosixPlatform::FileSize(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return Status::FromErrno(errno, "stat " + path);
  return static_cast<std::uint64_t>(st.st_size);
}

Result<std::uint64_t> PosixPlatform::FreeBytes(const std::string& path) {
  struct statvfs st;
  if (::statvfs(path.c_str(), &st) != 0) return Status::FromErrno(errno, "statvfs " + path);
  return static_cast<std::uint64_t>(st.f_bavail) * static_cast<std::uint64_t>(st.f_frsize);
}

Result<Pipe> PosixPlatform::MakePipe() {
  int fds[2];
#if HAVE_PIPE2
  if (::pipe2(fds, O_CLOEXEC) != 0) return Status::FromErrno(errno, "pipe2");
  return Pipe{FileHandle(*this, fds[0]), FileHandle(*this, fds[1])};
#else
  // No pipe2 (macOS): set the flag right after. A fork on another thread in between could leak
  // the ends into that child; durprobe forks only from the thread that makes its pipes.
  if (::pipe(fds) != 0) return Status::FromErrno(errno, "pipe");
  Pipe pipe{FileHandle(*this, fds[0]), FileHandle(*this, fds[1])};
  for (int fd : fds) {
    if (::fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) return Status::FromErrno(errno, "fcntl FD_CLOEXEC");
  }
  return pipe;
#endif
}

Status PosixPlatform::WriteAll(int fd, const void* buf, std::size_t n) {
  const char* p = static_cast<const char*>(buf);
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno(errno, "write to pipe");
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return Status::Ok();
}

Result<std::size_t> PosixPlatform::ReadSome(int fd, void* buf, std::size_t n) {
  for (;;) {
    ssize_t r = ::read(fd, buf, n);
    if (r >= 0) return static_cast<std::size_t>(r);
    if (errno != EINTR) return Status::FromErrno(errno, "read from pipe");
  }
}

Result<int> PosixPlatform::Spawn(const std::function<int()>& body) {
  pid_t pid = ::fork();
  if (pid < 0) return Status::FromErrno(errno, "fork");
  if (pid == 0) ::_exit(body());
  return static_cast<int>(pid);
}

Result<int> PosixPlatform::WaitChild(int pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Status::FromErrno(errno, fmt::format("waitpid {}", pid));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    return Status::Error(fmt::format("child {} killed by signal {}", pid, WTERMSIG(status)));
  }
  return Status::Error(fmt::format("child {} ended with status {}", pid, status));
}

}  // namespace durprobe::platform
