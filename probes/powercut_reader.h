// `durprobe powercut verify`'s reading (docs/powercut.md): each record the witness holds an
// acknowledgement of, read back from its slot and classified (probes/powercut_record.h).
// Measures; decides nothing (analysis/powercut_verdict.h does).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "probes/powercut_protocol.h"

namespace durprobe::probes {

struct PowercutTally {
  std::uint64_t acknowledged = 0;  // acks the witness holds
  std::uint64_t present = 0;
  std::uint64_t missing = 0;
  std::uint64_t torn = 0;
  std::vector<std::uint64_t> lost;  // the first lost (missing or torn) sequences, up to 20
};

// Reads the slot of every ack of run from the open file fd. An ack past the file's end is
// missing. A read error is an Error (nothing is guessed).
Result<PowercutTally> ReadBackRecords(platform::Platform& platform, int fd, const WitnessRun& run);

// Adds one record's state to tally (shared with the SQLite check).
void CountRecord(PowercutTally& tally, std::uint64_t sequence, bool present, bool torn);

}  // namespace durprobe::probes
