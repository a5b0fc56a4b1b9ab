#include "platform/link_kind.h"

// Defined by platform/static_link.cc in durprobe-static only; weak, so other binaries link
// without it and see its address as null.
extern "C" {
extern const bool durprobe_static_binary __attribute__((weak));
}

namespace durprobe::platform {

bool StaticBinary() { return &durprobe_static_binary != nullptr && durprobe_static_binary; }

}  // namespace durprobe::platform
