// The crash device where this build has none (no libfuse3 at build time, or not Linux).
#include "platform/crash_device.h"

namespace durprobe::platform {
namespace {

Status NoCrashDevice() {
  return Status::Unsupported(
      "this build has no crash device (it needs Linux and libfuse3 at build time)");
}

}  // namespace

Status CrashDeviceMissing(Platform&) { return NoCrashDevice(); }

Result<std::unique_ptr<CrashDevice>> CrashDevice::Create(Platform&, int, const std::string&,
                                                         const CrashDeviceOptions&) {
  return NoCrashDevice();
}

Result<std::unique_ptr<CrashState>> CrashState::Build(Platform&, int, const std::string&,
                                                      const std::string&, const std::string&,
                                                      const CrashLog&, const CrashStateSpec&,
                                                      const FsSpec&) {
  return NoCrashDevice();
}

Result<CrashCleanup> CleanCrashDevices(Platform&, const std::string&) { return CrashCleanup{}; }

}  // namespace durprobe::platform
