// TCP for the power-cut test's writer, witness and verify (docs/powercut.md): the only socket
// calls in durprobe. Blocking descriptors, each wait bounded by poll. Contract per call below.
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

}  // namespace durprobe::platform
