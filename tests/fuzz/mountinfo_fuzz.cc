// Fuzzes the /proc/self/mountinfo parser and the lookups inspect runs on its table: the text
// comes from the kernel, but its fields (mount points, sources, options) are names anyone
// with a mount namespace can choose.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string broken =
      durprobe::fuzz::CheckMountInfo(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!broken.empty()) {
    std::fprintf(stderr, "mountinfo: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
