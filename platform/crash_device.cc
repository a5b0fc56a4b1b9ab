#include "platform/crash_device.h"

namespace durprobe::platform {

const char* CacheModeName(CacheMode mode) {
  switch (mode) {
    case CacheMode::kHonest:
      return "honest";
    case CacheMode::kIgnoresFlush:
      return "ignores-flush";
    case CacheMode::kTorn:
      return "torn";
  }
  return "honest";
}

}  // namespace durprobe::platform
