// Fuzzes the saved-report reader that `durprobe diff` runs on files from other hosts: any bytes
// must come back as a report or as an error message, never as a crash or an exception.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string broken =
      durprobe::fuzz::CheckReportJson(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!broken.empty()) {
    std::fprintf(stderr, "report_json: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
