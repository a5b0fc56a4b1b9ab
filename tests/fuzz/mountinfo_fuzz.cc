// Fuzzes the /proc/self/mountinfo parser and the lookups inspect runs on its table: the text
// comes from the kernel, but its fields (mount points, sources, options) are names anyone
// with a mount namespace can choose.
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return durprobe::fuzz::RunCheck("mountinfo", durprobe::fuzz::CheckMountInfo, data, size);
}
