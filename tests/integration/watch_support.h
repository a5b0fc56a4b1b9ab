// What the tests of `durprobe watch` against real programs share: what the host lacks for them.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <string>

namespace durprobe::testing_support {

inline constexpr const char* kPython = "/usr/bin/python3";

inline std::string MissingForWatch() {
  if (::geteuid() != 0) return "needs root (BPF)";
  if (::access(kPython, X_OK) != 0) return "needs /usr/bin/python3";
  if (::access("/usr/bin/strace", X_OK) != 0) return "needs strace (Debian: strace)";
  if (::access("/sys/kernel/tracing/events/syscalls", F_OK) != 0) {
    // tracefs is the kernel's own; mounting it where it belongs changes nothing else.
    (void)std::system("mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null");
    if (::access("/sys/kernel/tracing/events/syscalls", F_OK) != 0) {
      return "no syscall tracepoints in /sys/kernel/tracing";
    }
  }
  return "";
}

}  // namespace durprobe::testing_support
