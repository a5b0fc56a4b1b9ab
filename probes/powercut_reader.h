// `durprobe powercut verify`'s reading (docs/powercut.md): each record the witness holds an
// acknowledgement of, read back from its slot and classified (probes/powercut_record.h).
// Measures; decides nothing (analysis/powercut_verdict.h does).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "probes/powercut_protocol.h"
#include "probes/powercut_record.h"

namespace durprobe::probes {

struct PowercutTally {
  std::uint64_t acknowledged = 0;  // acks the witness holds
  // Acks of records whose slot a later acknowledged record took (the writer went round): not
  // read back; every other ack is present, missing or torn.
  std::uint64_t overwritten = 0;
  std::uint64_t present = 0;
  std::uint64_t missing = 0;
  std::uint64_t torn = 0;
  // Acks whose slot holds the writer's next record there, never acknowledged, whole or part
  // written (probes/powercut_record.h CheckSlot): the acknowledged record was rightly replaced
  // by the write under way at the cut. Read back, not lost.
  std::uint64_t in_flight = 0;
  std::vector<std::uint64_t> lost;  // the first lost (missing or torn) sequences, up to 20
};

// The acks of run to read back, as indexes into run.acks: in each slot (seq % run.slots), the
// newest acknowledged record; every older one there was overwritten by the writer itself.
std::vector<std::size_t> NewestPerSlot(const WitnessRun& run);

// Reads the slot of each newest ack of run from the open file fd (the others count as
// overwritten). A slot past the file's end is missing. A read error is an Error.
Result<PowercutTally> ReadBackRecords(platform::Platform& platform, int fd, const WitnessRun& run);

// The tally when the file the records were in is not on the disk: the newest ack of each slot
// missing, the others overwritten.
PowercutTally AllMissing(const WitnessRun& run);

// The highest sequence run's witness holds (0 with none).
std::uint64_t HighestAcked(const WitnessRun& run);

// Adds one record's state to tally (shared with the SQLite check); CountOverwritten an ack whose
// slot a later record took.
void CountRecord(PowercutTally& tally, std::uint64_t sequence, bool present, bool torn);
void CountState(PowercutTally& tally, std::uint64_t sequence, RecordState state);
void CountOverwritten(PowercutTally& tally, std::size_t n);

}  // namespace durprobe::probes
