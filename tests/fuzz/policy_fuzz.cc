// Fuzzes the policy parser of `durprobe check --policy FILE` (TOML and JSON): any bytes
// must come back as a policy or as a one-line error naming the file, never as a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string broken =
      durprobe::fuzz::CheckPolicy(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!broken.empty()) {
    std::fprintf(stderr, "policy: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
