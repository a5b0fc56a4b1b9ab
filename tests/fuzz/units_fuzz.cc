// Fuzzes the size and duration parsers behind --sizes, --file-size, --budget and friends, and
// checks what a success promises: a size is a whole number of bytes from 1 to 1e15, a duration
// is above zero and at most 1e15 ns; the formatters take any of them.
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return durprobe::fuzz::RunCheck("units", durprobe::fuzz::CheckUnits, data, size);
}
