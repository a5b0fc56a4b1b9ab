// Fuzzes the power-cut witness's line protocol and log (probes/powercut_protocol.h): the
// LineBuffer, ParseMessage both ways, WitnessStore::Load and the GET answers it gives
// (CheckWitnessProtocol, fuzz_checks.h).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return durprobe::fuzz::RunCheck("witness_protocol", durprobe::fuzz::CheckWitnessProtocol, data,
                                  size);
}
