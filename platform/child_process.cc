#include "platform/child_process.h"

#include <fmt/format.h>

#include <cstdint>

namespace durprobe::platform {

Status ReadExactly(Platform& platform, int fd, void* buf, std::size_t n) {
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
    Platform& platform, const std::function<int(ChildChannel&)>& body,
    const std::vector<int>& close_in_child) {
  // Both pipes are close-on-exec: the child uses them across fork only, and anything it or the
  // parent execs later inherits neither.
  Result<Pipe> down = platform.MakePipe();
  if (!down.ok()) return down.status();
  Result<Pipe> up = platform.MakePipe();
  if (!up.ok()) return up.status();
  Result<int> pid = platform.Spawn([&]() {
    // Each side keeps only its own ends, so each sees end of stream when the other goes; the
    // siblings' ends go too, so each sibling sees it when the parent goes.
    for (int fd : close_in_child) (void)platform.Close(fd);
    (void)down->write.Close();
    (void)up->read.Close();
    ChildChannel channel(platform, down->read.get(), up->write.get());
    return body(channel);
  });
  if (!pid.ok()) return pid.status();
  // The child's ends (down->read, up->write) close when down and up go out of scope.
  return std::unique_ptr<ChildProcess>(
      new ChildProcess(platform, *pid, std::move(down->write), std::move(up->read)));
}

ChildProcess::~ChildProcess() {
  (void)to_child_.Close();  // a child still waiting for a signal sees end of stream and exits
  (void)from_child_.Close();
  // Reaped so it leaves no zombie; how it ended is no one's to read once the caller let it go.
  if (!waited_) (void)platform_.WaitChild(pid_);
}

Status ChildProcess::Send(char c) { return platform_.WriteAll(to_child_.get(), &c, 1); }

Result<std::string> ChildProcess::ReceiveFrame() {
  std::uint64_t size = 0;
  if (Status s = ReadExactly(platform_, from_child_.get(), &size, sizeof size); !s.ok()) {
    return Status::Error(fmt::format("child {} sent no result: {}", pid_, s.message()));
  }
  if (size > (64u << 20)) return Status::Error(fmt::format("child {} sent a garbled frame", pid_));
  std::string payload(size, '\0');
  if (Status s = ReadExactly(platform_, from_child_.get(), payload.data(), size); !s.ok()) return s;
  return payload;
}

Result<int> ChildProcess::Wait() {
  waited_ = true;
  return platform_.WaitChild(pid_);
}

}  // namespace durprobe::platform
