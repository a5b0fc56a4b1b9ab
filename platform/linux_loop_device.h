// A loop device attached to a file, for the crash device (linux_crash_device.cc) and the crash
// states it rebuilds (linux_crash_state.cc). Linux only.
#pragma once

#include <string>

#include "platform/file_handle.h"
#include "platform/platform.h"
#include "platform/status.h"

namespace durprobe::platform {

// Attached with autoclear, so the kernel detaches it once its last user closes it should this
// process die first; detached when the object goes. Writes to it are kept apart (no merging in
// the block layer), so the same workload logs the same writes from run to run.
class LoopDevice {
 public:
  // Attaches file to a free loop device (LOOP_CONFIGURE, else LOOP_SET_FD and
  // LOOP_SET_STATUS64); an errno-style Status when none could be had.
  static Result<LoopDevice> Attach(Platform& platform, const std::string& file);
  LoopDevice(LoopDevice&&) = default;
  LoopDevice& operator=(LoopDevice&&) = default;
  ~LoopDevice() { Detach(); }
  const std::string& path() const { return path_; }
  // Detaches now (a device still busy is freed by the kernel at its last close).
  void Detach();

 private:
  LoopDevice(FileHandle fd, std::string path) : fd_(std::move(fd)), path_(std::move(path)) {}
  FileHandle fd_;
  std::string path_;
};

}  // namespace durprobe::platform
