// Fuzzes the saved-report reader that `durprobe diff` runs on files from other hosts: any bytes
// must come back as a report or as an error message, never as a crash or an exception.
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return durprobe::fuzz::RunCheck("report_json", durprobe::fuzz::CheckReportJson, data, size);
}
