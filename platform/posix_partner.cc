// Platform::StartPartner on POSIX: a thread at the other end of a socket pair. Each message
// carries how long the partner spins before it answers.
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "platform/posix_platform.h"
#include "platform/thread.h"

namespace durprobe::platform {
namespace {

// Reads or writes all n bytes; false at the other end's close or on an error.
bool Whole(int fd, void* buf, std::size_t n, bool reading) {
  auto* p = static_cast<char*>(buf);
  while (n > 0) {
    ssize_t k = reading ? ::read(fd, p, n) : ::write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return true;
}

class SocketPartner final : public Platform::Partner {
 public:
  SocketPartner(Platform& platform, int fd, int partner_fd)
      : platform_(platform), fd_(fd), partner_fd_(partner_fd) {}
  ~SocketPartner() override {
    ::close(fd_);  // the partner's read ends, and so does its thread
    if (thread_.joinable()) thread_.join();
    ::close(partner_fd_);
  }
  Status Start() {
    Result<std::thread> t = StartThread([this] {
      std::uint64_t ns = 0;
      while (Whole(partner_fd_, &ns, sizeof ns, true)) {
        platform_.SpinNanos(ns);
        if (!Whole(partner_fd_, &ns, sizeof ns, false)) return;
      }
    });
    if (!t.ok()) return t.status();
    thread_ = std::move(*t);
    return Status::Ok();
  }
  Status RoundTrip(std::uint64_t side_ns) override {
    platform_.SpinNanos(side_ns);
    if (!Whole(fd_, &side_ns, sizeof side_ns, false) || !Whole(fd_, &side_ns, sizeof side_ns, true))
      return Status::FromErrno(errno == 0 ? EPIPE : errno, "a round trip to the partner thread");
    return Status::Ok();
  }

 private:
  Platform& platform_;
  int fd_, partner_fd_;
  std::thread thread_;
};

}  // namespace

Result<std::unique_ptr<Platform::Partner>> PosixPlatform::StartPartner() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) {
    return Status::FromErrno(errno, "socketpair for the partner thread");
  }
  auto partner = std::make_unique<SocketPartner>(*this, fds[0], fds[1]);
  if (Status s = partner->Start(); !s.ok()) return s;
  return std::unique_ptr<Platform::Partner>(std::move(partner));
}

}  // namespace durprobe::platform
