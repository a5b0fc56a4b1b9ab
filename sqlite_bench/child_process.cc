#include "sqlite_bench/child_process.h"

#include <fmt/format.h>

#include <cstdint>

namespace durprobe::sqlite_bench {

Status ReadExactly(platform::Platform& platform, int fd, void* buf, std::size_t n) {
  char* p = static_cast<char*>(buf);
  while (n > 0) {
    Result<std::size_t> got = platform.ReadSome(fd, p, n);
    if (!got.ok()) return got.status();
    if (*got == 0) return Status::Error("the other process closed its pipe early");
    p += *got;
    n -= *got;
  }
  return Status::Ok();
}

Result<char> ChildChannel::Receive() {
  char c = 0;
  if (Status s = ReadExactly(platform_, in_fd_, &c, 1); !s.ok()) return s;
  return c;
}

Status ChildChannel::SendFrame(const std::string& payload) {
  std::uint64_t size = payload.size();
  if (Status s = platform_.WriteAll(out_fd_, &size, sizeof size); !s.ok()) return s;
  return platform_.WriteAll(out_fd_, payload.data(), payload.size());
}

Result<std::unique_ptr<ChildProcess>> ChildProcess::Start(
    platform::Platform& platform, const std::function<int(ChildChannel&)>& body) {
  Result<std::pair<int, int>> down = platform.MakePipe();
  if (!down.ok()) return down.status();
  Result<std::pair<int, int>> up = platform.MakePipe();
  if (!up.ok()) {
    platform.Close(down->first);
    platform.Close(down->second);
    return up.status();
  }
  // Plain variables, not structured bindings: a lambda may not capture those before C++20
  // compilers caught up (clang 14, which builds the fuzzers).
  int down_read = down->first, down_write = down->second;
  int up_read = up->first, up_write = up->second;
  Result<int> pid = platform.Spawn([&]() {
    platform.Close(down_write);
    platform.Close(up_read);
    ChildChannel channel(platform, down_read, up_write);
    return body(channel);
  });
  platform.Close(down_read);
  platform.Close(up_write);
  if (!pid.ok()) {
    platform.Close(down_write);
    platform.Close(up_read);
    return pid.status();
  }
  return std::unique_ptr<ChildProcess>(new ChildProcess(platform, *pid, down_write, up_read));
}

ChildProcess::~ChildProcess() {
  platform_.Close(to_child_);  // a child still waiting for a signal sees end of stream and exits
  platform_.Close(from_child_);
  if (!waited_) platform_.WaitChild(pid_);
}

Status ChildProcess::Send(char c) { return platform_.WriteAll(to_child_, &c, 1); }

Result<std::string> ChildProcess::ReceiveFrame() {
  std::uint64_t size = 0;
  if (Status s = ReadExactly(platform_, from_child_, &size, sizeof size); !s.ok()) {
    return Status::Error(fmt::format("child {} sent no result: {}", pid_, s.message()));
  }
  if (size > (64u << 20)) return Status::Error(fmt::format("child {} sent a garbled frame", pid_));
  std::string payload(size, '\0');
  if (Status s = ReadExactly(platform_, from_child_, payload.data(), size); !s.ok()) return s;
  return payload;
}

Result<int> ChildProcess::Wait() {
  waited_ = true;
  return platform_.WaitChild(pid_);
}

}  // namespace durprobe::sqlite_bench
