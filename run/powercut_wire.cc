#include "run/powercut_wire.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "platform/interrupt.h"
#include "probes/powercut_protocol.h"

namespace durprobe::run {

Status ReadWitnessLines(platform::Platform& platform, int socket, std::uint64_t timeout_ns,
                        const std::string& witness,
                        const std::function<Result<bool>(const std::string&)>& line_done,
                        std::uint64_t deadline) {
  probes::LineBuffer lines;
  std::uint64_t until = platform.NowNanos() + timeout_ns;
  for (;;) {
    while (std::optional<std::string> line = lines.Next()) {
      Result<bool> done = line_done(*line);
      if (!done.ok()) return done.status();
      if (*done) return Status::Ok();
    }
    if (lines.overflowed()) {
      return Status::Error(
          fmt::format("the witness {} sent a line over {} bytes", witness, probes::kMaxLineBytes));
    }
    if (const int sig = platform::InterruptSignal(); sig != 0) {
      return Status::Interrupted(sig);
    }
    const std::uint64_t now = platform.NowNanos();
    if (deadline != 0 && now >= deadline) {
      return Status::Error(
          fmt::format("the witness {} did not finish its answer by the deadline "
                      "(--timeout): abandoned",
                      witness));
    }
    if (now >= until) {
      return Status::Error(fmt::format("the witness {} did not answer within {} s", witness,
                                       timeout_ns / 1000000000));
    }
    // A bounded wait, so a signal or the deadline is seen within 100 ms whatever the peer does.
    std::uint64_t wait = std::min<std::uint64_t>(until - now, 100'000'000);
    if (deadline != 0) wait = std::min(wait, deadline - now);
    const int fds[] = {socket};
    Result<std::vector<std::size_t>> ready = platform::WaitReadable(fds, wait);
    if (!ready.ok()) return ready.status();
    if (ready->empty()) continue;
    char buf[1 << 16];
    Result<std::size_t> got = platform::TcpReceive(socket, buf, sizeof buf);
    if (!got.ok()) return got.status();
    if (*got == 0) {
      return Status::Error(fmt::format("the witness {} closed the connection", witness));
    }
    lines.Append(std::string_view(buf, *got));
    until = platform.NowNanos() + timeout_ns;  // a long answer is fine while it keeps coming
  }
}

Result<platform::FileHandle> ConnectWitness(platform::Platform& platform,
                                            const platform::Endpoint& e, std::uint64_t timeout_ns) {
  Result<platform::FileHandle> socket = platform::TcpConnect(platform, e, timeout_ns);
  if (!socket.ok()) {
    return Status::Error(
        fmt::format("witness {} unreachable: {}", e.Text(), socket.status().message()));
  }
  return socket;
}

}  // namespace durprobe::run
