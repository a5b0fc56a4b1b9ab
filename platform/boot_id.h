// Which boot of the machine this is: the kernel's random boot id, new at every boot. The power-cut
// test writes it beside its records and compares it after the cut (run/powercut.h), so a verify
// that ran without a reboot in between says so instead of passing for a power-cut test.
#pragma once

#include <string>

#include "platform/platform.h"

namespace durprobe::platform {

// The boot id ("2f6c...-..."; /proc/sys/kernel/random/boot_id on Linux), without its newline;
// Unsupported where the OS has none.
Result<std::string> ReadBootId(Platform& platform);

}  // namespace durprobe::platform
