#include "probes/powercut_reader.h"

#include <span>
#include <vector>

#include "probes/powercut_record.h"

namespace durprobe::probes {

void CountRecord(PowercutTally& tally, std::uint64_t sequence, bool present, bool torn) {
  ++tally.acknowledged;
  if (present) {
    ++tally.present;
    return;
  }
  if (torn) {
    ++tally.torn;
  } else {
    ++tally.missing;
  }
  if (tally.lost.size() < 20) tally.lost.push_back(sequence);
}

Result<PowercutTally> ReadBackRecords(platform::Platform& platform, int fd, const WitnessRun& run) {
  PowercutTally tally;
  std::vector<std::uint8_t> slot(run.record_size);
  for (const WitnessAck& a : run.acks) {
    Result<std::size_t> got =
        platform.PRead(fd, slot.data(), slot.size(), a.sequence * run.record_size);
    if (!got.ok()) return got.status();
    if (*got < slot.size()) {
      std::fill(slot.begin() + static_cast<std::ptrdiff_t>(*got), slot.end(), 0);
    }
    const RecordState state = CheckRecord(slot, a.sequence, run.run_id, a.checksum);
    CountRecord(tally, a.sequence, state == RecordState::kPresent, state == RecordState::kTorn);
  }
  return tally;
}

}  // namespace durprobe::probes
