// TCP for the power-cut test's writer, witness and verify (docs/powercut.md): the only socket
// calls in durprobe. The writer and verify use blocking descriptors, each wait bounded by poll;
// the witness, which must never wait on one client, non-blocking ones (the *Now calls and Poll).
// Contract per call below.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "platform/file_handle.h"
#include "platform/platform.h"

namespace durprobe::platform {

// "ADDR:PORT", "[v6]:PORT" or "HOST:PORT". Pure.
struct Endpoint {
  std::string host;
  std::uint16_t port = 0;
  std::string Text() const;
};
// InvalidArgument naming text when it is not ADDR:PORT with a port from 0 (listen only: any) to
// 65535.
Result<Endpoint> ParseEndpoint(std::string_view text);

// A socket bound to e (the host resolved numerically or by name, first address) and listening;
// SO_REUSEADDR set. The errno with the address when it fails.
Result<FileHandle> TcpListen(Platform& platform, const Endpoint& e);
// The port a bound socket has (for a listen on port 0).
Result<std::uint16_t> TcpLocalPort(int fd);
// The next connection on a listening socket; the peer as "ADDR:PORT" in peer.
Result<FileHandle> TcpAccept(Platform& platform, int listen_fd, std::string& peer);
// A connection to e, given up after timeout_ns (an Error saying it timed out). TCP_NODELAY set.
Result<FileHandle> TcpConnect(Platform& platform, const Endpoint& e, std::uint64_t timeout_ns);
// Sends every byte (MSG_NOSIGNAL: a closed peer is EPIPE, not a signal).
Status TcpSend(int fd, std::string_view bytes);
// Up to n bytes into buf; 0 when the peer closed. Retries EINTR.
Result<std::size_t> TcpReceive(int fd, char* buf, std::size_t n);
// Waits up to timeout_ns (0: just looks) for any of fds to be readable (or closed, or in
// error); the indexes of those that are, empty on timeout. An interrupting signal returns
// empty too, so callers check platform::InterruptSignal().
Result<std::vector<std::size_t>> WaitReadable(std::span<const int> fds, std::uint64_t timeout_ns);

// For a server that never waits on one client. Makes fd non-blocking.
Status SetNonBlocking(int fd);
// One accept on a non-blocking listener: the connection (non-blocking, close-on-exec,
// TCP_NODELAY) and its peer, or an empty handle when none is waiting; the errno otherwise
// (OutOfDescriptors tells EMFILE and ENFILE apart).
Result<FileHandle> TcpAcceptNow(Platform& platform, int listen_fd, std::string& peer);
// Sends what the socket takes now (MSG_NOSIGNAL|MSG_DONTWAIT): how many bytes, 0 when its
// buffer is full. Never waits, never retried after a signal.
Result<std::size_t> TcpSendNow(int fd, std::string_view bytes);
// What arrived, without waiting: bytes received; closed when the peer closed (or reset) the
// connection; 0 bytes and not closed when nothing was there.
struct Received {
  std::size_t bytes = 0;
  bool closed = false;
};
Result<Received> TcpReceiveNow(int fd, char* buf, std::size_t n);
// One descriptor to Poll: what to wait for, and (set by Poll) what it is ready for.
struct PollItem {
  int fd = -1;
  bool read = false;   // wait until readable (or closed, or in error)
  bool write = false;  // wait until writable (or in error)
  bool readable = false;
  bool writable = false;
};
// Waits up to timeout_ns for any item to be ready for what it asks, and marks those that are (a
// closed or failed descriptor is marked for what it asked). A signal ends the wait with none
// marked: callers check platform::InterruptSignal().
Status Poll(std::span<PollItem> items, std::uint64_t timeout_ns);
// The soft limit on this process's open descriptors (RLIMIT_NOFILE); 0 when unlimited.
Result<std::uint64_t> DescriptorLimit();
// Whether s failed because the process or the system has no descriptor left (EMFILE, ENFILE).
bool OutOfDescriptors(const Status& s);

}  // namespace durprobe::platform
