// Fuzzes the size and duration parsers behind --sizes, --file-size, --budget and friends, and
// checks what a success promises: a size is a whole number of bytes from 1 to 1e15, a duration
// is above zero and at most 1e15 ns; the formatters take any of them.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string broken =
      durprobe::fuzz::CheckUnits(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!broken.empty()) {
    std::fprintf(stderr, "units: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
