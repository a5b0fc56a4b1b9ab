// A forked child process with two pipes: one byte at a time from parent to child (start signals)
// and length-prefixed frames from child to parent (its results). Built on the platform seam, for
// the process variants of the lock and concurrency workloads.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "platform/platform.h"

namespace durprobe::platform {

// The child's ends of the pipes, borrowed: the child exits without closing them.
class ChildChannel {
 public:
  ChildChannel(Platform& platform, int in_fd, int out_fd)
      : platform_(platform), in_fd_(in_fd), out_fd_(out_fd) {}
  // The next byte from the parent; an error at end of stream (the parent went away).
  Result<char> Receive();
  Status SendFrame(const std::string& payload);

 private:
  Platform& platform_;
  int in_fd_, out_fd_;
};

class ChildProcess {
 public:
  // Forks; the child runs body and exits with its return value. Open no SQLite connection to a
  // database the child will use before calling this: SQLite's per-process lock bookkeeping would
  // be copied into the child. The child closes close_in_child first: the parent's ends of its
  // other children's pipes (see ParentEnds), which would otherwise keep a sibling from ever
  // seeing end of stream.
  static Result<std::unique_ptr<ChildProcess>> Start(Platform& platform,
                                                     const std::function<int(ChildChannel&)>& body,
                                                     const std::vector<int>& close_in_child = {});
  // Closes the pipes and reaps the child if Wait was not called.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  Status Send(char c);
  // The child's next frame; an error when it exited without sending one.
  Result<std::string> ReceiveFrame();
  // The child's exit code.
  Result<int> Wait();
  // The parent's ends of this child's pipes: a later sibling must close them (Start's list).
  std::vector<int> ParentEnds() const { return {to_child_.get(), from_child_.get()}; }

 private:
  ChildProcess(Platform& platform, int pid, FileHandle to_child, FileHandle from_child)
      : platform_(platform),
        pid_(pid),
        to_child_(std::move(to_child)),
        from_child_(std::move(from_child)) {}
  Platform& platform_;
  int pid_;
  FileHandle to_child_, from_child_;
  bool waited_ = false;
};

// Reads exactly n bytes from fd; an error at a premature end of stream.
Status ReadExactly(Platform& platform, int fd, void* buf, std::size_t n);

}  // namespace durprobe::platform
