// The Linux io_uring, built only where liburing is (HAVE_LIBURING); linux_platform.cc calls it.
#pragma once

#include <memory>

#include "platform/io_ring.h"

namespace durprobe::platform {

// A ring of `entries`, or Unsupported with the reason (ENOSYS, EPERM, EACCES).
Result<std::unique_ptr<IoRing>> MakeLinuxRing(unsigned entries);

}  // namespace durprobe::platform
