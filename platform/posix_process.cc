// File sizes, free space, pipes and child processes on POSIX systems (the process variants of the
// SQLite lock and concurrency workloads).
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>

#include "durprobe_config.h"
#include "platform/interrupt.h"
#include "platform/posix_platform.h"

#if HAVE_PR_SET_PDEATHSIG
#include <sys/prctl.h>
#endif

namespace durprobe::platform {
namespace {

// How long a blocking read waits before it looks at InterruptSignal() again.
constexpr int kInterruptPollMs = 200;

}  // namespace

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

namespace {

// SIGPIPE from a write to a child's pipe would read as "stdout closed" (the handler records it):
// the write blocks it for its thread, and a SIGPIPE it raised is taken back before unblocking.
class QuietPipeWrite {
 public:
  QuietPipeWrite() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
  }
  ~QuietPipeWrite() {
    sigset_t pending;
    sigpending(&pending);
    if (!was_pending_ && sigismember(&pending, SIGPIPE) == 1) {
      int taken = 0;
      sigwait(&pipe_, &taken);
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  QuietPipeWrite(const QuietPipeWrite&) = delete;
  QuietPipeWrite& operator=(const QuietPipeWrite&) = delete;

 private:
  sigset_t pipe_, old_;
  bool was_pending_ = false;
};

}  // namespace

Status PosixPlatform::WriteAll(int fd, const void* buf, std::size_t n) {
  QuietPipeWrite quiet;
  const char* p = static_cast<const char*>(buf);
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno != EINTR) return Status::FromErrno(errno, "write to pipe");
      if (int sig = InterruptSignal(); sig != 0) return Status::Interrupted(sig);
      continue;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return Status::Ok();
}

Result<std::size_t> PosixPlatform::ReadSome(int fd, void* buf, std::size_t n) {
  for (;;) {
    if (int sig = InterruptSignal(); sig != 0) return Status::Interrupted(sig);
    // The timeout closes the gap between the check above and poll: a signal that lands there
    // is seen at the next turn instead of never.
    struct pollfd ready {};
    ready.fd = fd;
    ready.events = POLLIN;
    int rc = ::poll(&ready, 1, kInterruptPollMs);
    if (rc < 0 && errno != EINTR) return Status::FromErrno(errno, "poll pipe");
    if (rc <= 0) continue;
    ssize_t r = ::read(fd, buf, n);
    if (r >= 0) return static_cast<std::size_t>(r);
    if (errno != EINTR && errno != EAGAIN) return Status::FromErrno(errno, "read from pipe");
  }
}

Result<int> PosixPlatform::Spawn(const std::function<int()>& body) {
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) return Status::FromErrno(errno, "fork");
  if (pid == 0) {
#if HAVE_PR_SET_PDEATHSIG
    // A worker dies with the parent, even one killed by SIGKILL.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);  // the parent died before prctl
#else
    (void)parent;
#endif
    ::_exit(body());
  }
  return static_cast<int>(pid);
}

Result<int> PosixPlatform::WaitChild(int pid) {
  int status = 0;
  bool killed = false;
  for (;;) {
    // Once the run is interrupted the child is not waited for: it is killed, then reaped.
    if (!killed && InterruptSignal() != 0) killed = ::kill(pid, SIGKILL) == 0;
    pid_t r = ::waitpid(pid, &status, killed ? 0 : WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) return Status::FromErrno(errno, fmt::format("waitpid {}", pid));
    if (r == 0) {
      struct timespec pause {};
      pause.tv_nsec = kInterruptPollMs * 1000000L / 10;
      ::nanosleep(&pause, nullptr);
    }
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
    return Status::Interrupted(InterruptSignal());
  }
  if (WIFSIGNALED(status)) {
    return Status::Error(fmt::format("child {} killed by signal {} ({})", pid, WTERMSIG(status),
                                     ::strsignal(WTERMSIG(status))));
  }
  return Status::Error(fmt::format("child {} ended with status {}", pid, status));
}

}  // namespace durprobe::platform
