// Loop devices for the crash device (platform/linux_loop_device.h).
#include "platform/linux_loop_device.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace durprobe::platform {
namespace {

// The block layer merges adjacent writes that meet in its queue, so how many writes the server
// sees, and where one ends, would depend on timing: the same workload gave 48 to 51 writes from
// run to run. With merging off, each write the filesystem submits is one record, and the same
// seed rebuilds the same states. Best effort: a kernel without the knob merges as before.
void KeepWritesApart(const std::string& device) {
  const std::string knob = "/sys/block/" + device.substr(device.rfind('/') + 1) + "/queue/nomerges";
  int fd = ::open(knob.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  (void)!::write(fd, "2", 1);
  ::close(fd);
}

Status LoopErrno(const std::string& context) { return Status::FromErrno(errno, context); }

}  // namespace

Result<LoopDevice> LoopDevice::Attach(Platform& platform, const std::string& file) {
  int control = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
  if (control < 0) return LoopErrno("open /dev/loop-control");
  FileHandle control_handle(platform, control);
  int backing = ::open(file.c_str(), O_RDWR | O_CLOEXEC);
  if (backing < 0) return LoopErrno("open " + file);
  FileHandle backing_handle(platform, backing);
  for (int attempt = 0; attempt < 8; ++attempt) {  // another process may take the free one
    int n = ::ioctl(control, LOOP_CTL_GET_FREE);
    if (n < 0) return LoopErrno("LOOP_CTL_GET_FREE");
    std::string path = fmt::format("/dev/loop{}", n);
    int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    // A free device another process is tearing down meanwhile (its autoclear, or a loop
    // device being deleted) cannot be opened: ENXIO, or ENOENT once its node is gone. Ask for
    // the next free one, as for a device taken meanwhile.
    if (fd < 0 && (errno == ENXIO || errno == ENOENT)) continue;
    if (fd < 0) return LoopErrno("open " + path);
    FileHandle dev(platform, fd);
    struct loop_config config;
    std::memset(&config, 0, sizeof config);
    config.fd = static_cast<std::uint32_t>(backing);
    config.info.lo_flags = LO_FLAGS_AUTOCLEAR;
    if (::ioctl(fd, LOOP_CONFIGURE, &config) == 0) {
      KeepWritesApart(path);
      return LoopDevice(std::move(dev), path);
    }
    if (errno == EBUSY) continue;
    if (errno != EINVAL && errno != ENOTTY) return LoopErrno("LOOP_CONFIGURE " + path);
    // Kernels before 5.8: the two-step way.
    if (::ioctl(fd, LOOP_SET_FD, backing) != 0) {
      if (errno == EBUSY) continue;
      return LoopErrno("LOOP_SET_FD " + path);
    }
    if (::ioctl(fd, LOOP_SET_STATUS64, &config.info) != 0) {
      Status s = LoopErrno("LOOP_SET_STATUS64 " + path);
      ::ioctl(fd, LOOP_CLR_FD, 0);
      return s;
    }
    KeepWritesApart(path);
    return LoopDevice(std::move(dev), path);
  }
  return Status::Error("no free loop device after 8 tries (others kept taking them)");
}

void LoopDevice::Detach() {
  if (!fd_.valid()) return;
  ::ioctl(fd_.get(), LOOP_CLR_FD, 0);  // busy: the kernel frees it at the last close
  (void)fd_.Close();
}

}  // namespace durprobe::platform
