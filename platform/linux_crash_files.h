// The files and directories the crash device keeps in its scratch directory, and how they are
// opened there: by name under the scratch's descriptor, never through a symlink. Every name
// starts with "crash-", which is how `durprobe clean` knows what a killed run left. Linux only.
#pragma once

#include <string>

#include "platform/file_handle.h"
#include "platform/platform.h"
#include "platform/status.h"

namespace durprobe::platform {

inline constexpr char kCrashImage[] = "crash-image";      // the device's flushed image
inline constexpr char kCrashLog[] = "crash-log";          // every write and flush, in order
inline constexpr char kCrashBase[] = "crash-base";        // the image a workload starts from
inline constexpr char kCrashFuseDir[] = "crash-fuse";     // where the FUSE server serves it
inline constexpr char kCrashMountDir[] = "crash-mnt";     // the filesystem on the device
inline constexpr char kStateImage[] = "crash-state.img";  // a crash state rebuilt from the log
inline constexpr char kStateDir[] = "crash-state";        // where that state is mounted

// scratch + "/" + name.
std::string CrashPath(const std::string& scratch, const char* name);

// Whether name is one the crash device makes (it starts with "crash-").
bool IsCrashName(const std::string& name);

// mkdirat(dir_fd, name, 0700); an existing directory is fine.
Status MakeCrashDir(int dir_fd, const char* name);

// openat(dir_fd, name, flags) with O_NOFOLLOW and O_CLOEXEC added, mode 0600 when created.
Result<FileHandle> OpenCrashFile(Platform& platform, int dir_fd, const char* name, int flags);

}  // namespace durprobe::platform
