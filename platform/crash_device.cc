// What every platform's crash device shares: the mount options it refuses.
#include <fmt/format.h>

#include "platform/crash_device.h"

namespace durprobe::platform {

Status CheckCrashFsSpec(const FsSpec& fs) {
  if (fs.type != "ext4" && fs.type != "xfs" && fs.type != "btrfs") {
    return Status::InvalidArgument(
        fmt::format("the crash device makes ext4, xfs or btrfs, not '{}'", fs.type));
  }
  std::size_t start = 0;
  while (start <= fs.options.size()) {
    std::size_t comma = fs.options.find(',', start);
    if (comma == std::string::npos) comma = fs.options.size();
    if (fs.options.compare(start, comma - start, "errors=panic") == 0) {
      return Status::InvalidArgument(
          "mount option errors=panic refused: a failed write on the crash device would panic "
          "this machine's kernel (errors=remount-ro and errors=continue are measured instead)");
    }
    start = comma + 1;
  }
  return Status::Ok();
}

}  // namespace durprobe::platform
