// Making and mounting a filesystem on a crash device's loop device, and the kernel's words about
// it: mkfs's command line, mount(2) with the options of an FsSpec, a patient unmount, and
// /dev/kmsg read from a point on. Linux only; for linux_crash_device.cc and linux_crash_state.cc.
#pragma once

#include <string>
#include <vector>

#include "platform/crash_device.h"
#include "platform/file_handle.h"
#include "platform/platform.h"
#include "platform/status.h"

namespace durprobe::platform {

// The kernel's log from construction on, to quote what it said about a device; empty when
// /dev/kmsg cannot be read.
class KernelLog {
 public:
  explicit KernelLog(Platform& platform);
  // The messages since construction (or the last call) that name the device ("loop5"), without
  // their prefix.
  std::vector<std::string> LinesAbout(const std::string& device);

 private:
  FileHandle fd_;
};

// The mkfs command that formats device as fs (nothing discarded, nothing left for later); empty
// for a type the crash device does not make.
std::vector<std::string> MkfsCommand(const FsSpec& fs, const std::string& device);

// Mounts device on target as fs, with extra mount data appended to fs's options; whether it
// mounted, mount(2)'s error, and the kernel's lines about the device meanwhile.
MountOutcome MountDevice(Platform& platform, const std::string& device, const std::string& target,
                         const FsSpec& fs, const std::string& extra);

// Unmounts target; a mount still busy after a few tries is detached lazily (it goes once its
// last user does), so nothing of it stays reachable. Ok when target was not mounted.
Status UnmountPath(const std::string& target);

}  // namespace durprobe::platform
