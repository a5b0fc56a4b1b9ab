// Fuzzes the policy parser of `durprobe check --policy FILE` (TOML and JSON): any bytes
// must come back as a policy or as a one-line error naming the file, never as a crash.
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return durprobe::fuzz::RunCheck("policy", durprobe::fuzz::CheckPolicy, data, size);
}
