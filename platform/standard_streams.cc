#include "platform/standard_streams.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>

namespace durprobe::platform {

namespace {
bool closed_at_start = false;  // stdout was closed when durprobe started
}  // namespace

void ReserveClosedStandardDescriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    if (fd == 1) closed_at_start = true;
    int opened = ::open("/dev/null", O_RDONLY);  // the lowest free number: fd itself
    if (opened >= 0 && opened != fd) {
      ::dup2(opened, fd);
      ::close(opened);
    }
  }
}

Status FinishStandardOutput() {
  // std::cout writes through to C's stdout (synced with stdio), whose buffer holds what has not
  // reached the descriptor yet: the stream's state says whether a flush failed already, fclose
  // flushes the rest and closes the descriptor (a deferred error, as on NFS, surfaces there).
  errno = 0;
  std::cout.flush();
  bool stream_failed = !std::cout.good();
  int stream_errno = errno;
  errno = 0;
  bool flushed = std::fflush(stdout) == 0 && std::ferror(stdout) == 0;
  int flush_errno = errno;
  errno = 0;
  bool closed = std::fclose(stdout) == 0;
  int close_errno = errno;
  if (flushed && closed && !stream_failed) return Status::Ok();
  int err = flush_errno != 0 ? flush_errno : close_errno != 0 ? close_errno : stream_errno;
  // The errno of a write that failed while printing is gone by now (stdio keeps only the
  // error flag): a closed stdout shows as the read-only /dev/null put there at the start.
  if (err == 0 && closed_at_start) return Status::FromErrno(EBADF, "standard output (closed)");
  if (err == 0) return Status::Error("standard output: a write failed (a full device?)");
  return Status::FromErrno(err, "standard output");
}

}  // namespace durprobe::platform
