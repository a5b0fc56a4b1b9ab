#include "platform/tcp.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "platform/link_kind.h"

namespace durprobe::platform {
namespace {

struct AddrInfoList {
  addrinfo* head = nullptr;
  ~AddrInfoList() {
    if (head != nullptr) ::freeaddrinfo(head);
  }
};

Status Resolve(const Endpoint& e, bool passive, AddrInfoList& out) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = passive ? AI_PASSIVE : 0;
  // The static binary has no name service (platform/link_kind.h): addresses only.
  if (StaticBinary()) hints.ai_flags |= AI_NUMERICHOST;
  const std::string port = std::to_string(e.port);
  const int rc =
      ::getaddrinfo(e.host.empty() ? nullptr : e.host.c_str(), port.c_str(), &hints, &out.head);
  if (rc == EAI_NONAME && StaticBinary()) {
    return Status::InvalidArgument(
        fmt::format("{}: the static binary takes numeric addresses only (10.0.0.2:7199, "
                    "[fd00::2]:7199); a host name needs the packaged durprobe",
                    e.Text()));
  }
  if (rc != 0 || out.head == nullptr) {
    return Status::Error(fmt::format("{}: cannot resolve: {}", e.Text(), ::gai_strerror(rc)));
  }
  return Status::Ok();
}

std::string PeerText(const sockaddr_storage& ss) {
  char host[INET6_ADDRSTRLEN] = {};
  std::uint16_t port = 0;
  if (ss.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&ss);
    ::inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
    port = ntohs(a->sin_port);
    return fmt::format("{}:{}", host, port);
  }
  const auto* a = reinterpret_cast<const sockaddr_in6*>(&ss);
  ::inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
  port = ntohs(a->sin6_port);
  return fmt::format("[{}]:{}", host, port);
}

}  // namespace

std::string Endpoint::Text() const {
  return host.find(':') != std::string::npos ? fmt::format("[{}]:{}", host, port)
                                             : fmt::format("{}:{}", host, port);
}

Result<Endpoint> ParseEndpoint(std::string_view text) {
  auto bad = [&] {
    return Status::InvalidArgument(
        fmt::format("'{}': expected ADDR:PORT (10.0.0.2:7199, [fd00::2]:7199)", text));
  };
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return bad();
  Endpoint e;
  std::string_view host = text.substr(0, colon);
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return bad();
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    return bad();
  }
  const std::string_view port = text.substr(colon + 1);
  unsigned value = 0;
  auto [p, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc() || p != port.data() + port.size() || value > 65535) {
    return bad();
  }
  e.host = host;
  e.port = static_cast<std::uint16_t>(value);
  return e;
}

Result<FileHandle> TcpListen(Platform& platform, const Endpoint& e) {
  AddrInfoList ai;
  if (Status s = Resolve(e, true, ai); !s.ok()) return s;
  const int fd = ::socket(ai.head->ai_family, SOCK_STREAM, 0);
  if (fd < 0) return Status::FromErrno(errno, "socket");
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  FileHandle handle(platform, fd);
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(fd, ai.head->ai_addr, ai.head->ai_addrlen) != 0) {
    return Status::FromErrno(errno, fmt::format("bind {}", e.Text()));
  }
  if (::listen(fd, 64) != 0) return Status::FromErrno(errno, fmt::format("listen {}", e.Text()));
  return handle;
}

Result<std::uint16_t> TcpLocalPort(int fd) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) {
    return Status::FromErrno(errno, "getsockname");
  }
  if (ss.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
  return ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port);
}

Result<FileHandle> TcpAccept(Platform& platform, int listen_fd, std::string& peer) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  int fd;
  do {
    fd = ::accept(listen_fd, reinterpret_cast<sockaddr*>(&ss), &len);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Status::FromErrno(errno, "accept");
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  peer = PeerText(ss);
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return FileHandle(platform, fd);
}

Result<FileHandle> TcpConnect(Platform& platform, const Endpoint& e, std::uint64_t timeout_ns) {
  AddrInfoList ai;
  if (Status s = Resolve(e, false, ai); !s.ok()) return s;
  const int fd = ::socket(ai.head->ai_family, SOCK_STREAM, 0);
  if (fd < 0) return Status::FromErrno(errno, "socket");
  FileHandle handle(platform, fd);
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  if (::connect(fd, ai.head->ai_addr, ai.head->ai_addrlen) != 0) {
    if (errno != EINPROGRESS) return Status::FromErrno(errno, fmt::format("connect {}", e.Text()));
    pollfd p{fd, POLLOUT, 0};
    int rc;
    do {
      rc = ::poll(&p, 1, static_cast<int>(timeout_ns / 1000000));
    } while (rc < 0 && errno == EINTR);
    if (rc == 0) {
      return Status::Error(
          fmt::format("connect {}: no answer within {} ms", e.Text(), timeout_ns / 1000000));
    }
    int err = 0;
    socklen_t len = sizeof err;
    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (rc < 0 || err != 0) {
      return Status::FromErrno(rc < 0 ? errno : err, fmt::format("connect {}", e.Text()));
    }
  }
  const int flags = ::fcntl(fd, F_GETFL);
  ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return handle;
}

Status TcpSend(int fd, std::string_view bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno(errno, "send");
    }
    done += static_cast<std::size_t>(n);
  }
  return Status::Ok();
}

Result<std::size_t> TcpReceive(int fd, char* buf, std::size_t n) {
  ssize_t got;
  do {
    got = ::recv(fd, buf, n, 0);
  } while (got < 0 && errno == EINTR);
  if (got < 0) return Status::FromErrno(errno, "recv");
  return static_cast<std::size_t>(got);
}

Result<std::vector<std::size_t>> WaitReadable(std::span<const int> fds, std::uint64_t timeout_ns) {
  std::vector<pollfd> p;
  p.reserve(fds.size());
  for (int fd : fds) p.push_back({fd, POLLIN, 0});
  const int rc = ::poll(p.data(), p.size(), static_cast<int>(timeout_ns / 1000000));
  std::vector<std::size_t> ready;
  if (rc < 0) {
    if (errno == EINTR) return ready;
    return Status::FromErrno(errno, "poll");
  }
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i].revents != 0) ready.push_back(i);
  }
  return ready;
}

Status SetNonBlocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
    return Status::FromErrno(errno, "fcntl O_NONBLOCK");
  }
  return Status::Ok();
}

Result<FileHandle> TcpAcceptNow(Platform& platform, int listen_fd, std::string& peer) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  int fd;
  do {
    fd = ::accept(listen_fd, reinterpret_cast<sockaddr*>(&ss), &len);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    // Nothing waiting, or a connection that was reset before it was taken: none to serve.
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED) return FileHandle();
    return Status::FromErrno(errno, "accept");
  }
  FileHandle handle(platform, fd);
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  if (Status s = SetNonBlocking(fd); !s.ok()) return s;
  peer = PeerText(ss);
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return handle;
}

Result<std::size_t> TcpSendNow(int fd, std::string_view bytes) {
  const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  if (n >= 0) return static_cast<std::size_t>(n);
  if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return std::size_t{0};
  return Status::FromErrno(errno, "send");
}

Result<Received> TcpReceiveNow(int fd, char* buf, std::size_t n) {
  Received r;
  const ssize_t got = ::recv(fd, buf, n, MSG_DONTWAIT);
  if (got > 0) {
    r.bytes = static_cast<std::size_t>(got);
  } else if (got == 0) {
    r.closed = true;
  } else if (errno == ECONNRESET || errno == ETIMEDOUT) {
    r.closed = true;
  } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
    return Status::FromErrno(errno, "recv");
  }
  return r;
}

Status Poll(std::span<PollItem> items, std::uint64_t timeout_ns) {
  std::vector<pollfd> p;
  p.reserve(items.size());
  for (const PollItem& i : items) {
    const short events = static_cast<short>((i.read ? POLLIN : 0) | (i.write ? POLLOUT : 0));
    p.push_back({events == 0 ? -1 : i.fd, events, 0});  // a negative fd is skipped by poll
  }
  const int rc = ::poll(p.data(), p.size(), static_cast<int>(timeout_ns / 1000000));
  if (rc < 0) return errno == EINTR ? Status::Ok() : Status::FromErrno(errno, "poll");
  for (std::size_t k = 0; k < p.size(); ++k) {
    const bool failed = (p[k].revents & (POLLERR | POLLHUP | POLLNVAL)) != 0;
    items[k].readable = items[k].read && ((p[k].revents & POLLIN) != 0 || failed);
    items[k].writable = items[k].write && ((p[k].revents & POLLOUT) != 0 || failed);
  }
  return Status::Ok();
}

Result<std::uint64_t> DescriptorLimit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return Status::FromErrno(errno, "getrlimit");
  if (limit.rlim_cur == RLIM_INFINITY) return std::uint64_t{0};
  return static_cast<std::uint64_t>(limit.rlim_cur);
}

bool OutOfDescriptors(const Status& s) {
  return s.error_number() == EMFILE || s.error_number() == ENFILE;
}

}  // namespace durprobe::platform
