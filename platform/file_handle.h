// An open descriptor owned by a value (ccache's util/fd.hpp, LevelDB's PosixWritableFile): it is
// closed exactly once, through the Platform that opened it, on every path out of the owner's
// scope. Platform::Open and Platform::MakePipe hand descriptors out this way.
#pragma once

#include "platform/status.h"

namespace durprobe::platform {

class Platform;

class FileHandle {
 public:
  // An empty handle: owns nothing, get() is -1.
  FileHandle() = default;
  // Takes ownership of fd, to be closed with platform.Close(fd); platform must outlive the handle.
  FileHandle(Platform& platform, int fd);
  // Closes the descriptor if the handle still owns one; a close error is lost, so callers that
  // must see it (a deferred write error can surface at close) call Close() first.
  ~FileHandle();
  FileHandle(FileHandle&& other) noexcept;
  // Closes what this handle owned, then takes other's descriptor.
  FileHandle& operator=(FileHandle&& other) noexcept;
  FileHandle(const FileHandle&) = delete;
  FileHandle& operator=(const FileHandle&) = delete;

  // The descriptor, still owned by the handle; -1 when empty.
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  // Gives the descriptor up without closing it: the caller now closes it. The handle is empty.
  int release();
  // Closes now and returns close's status; the handle is empty afterwards, whatever the status
  // (close is never retried). Ok on an empty handle.
  Status Close();

 private:
  Platform* platform_ = nullptr;
  int fd_ = -1;
};

}  // namespace durprobe::platform
