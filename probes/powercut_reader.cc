#include "probes/powercut_reader.h"

#include <algorithm>
#include <cstdint>
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

void CountState(PowercutTally& tally, std::uint64_t sequence, RecordState state) {
  if (state == RecordState::kInFlight) {
    ++tally.acknowledged;
    ++tally.in_flight;
    return;
  }
  CountRecord(tally, sequence, state == RecordState::kPresent, state == RecordState::kTorn);
}

std::uint64_t HighestAcked(const WitnessRun& run) {
  std::uint64_t highest = 0;
  for (const WitnessAck& a : run.acks) highest = std::max(highest, a.sequence);
  return highest;
}

void CountOverwritten(PowercutTally& tally, std::size_t n) {
  tally.acknowledged += n;
  tally.overwritten += n;
}

PowercutTally AllMissing(const WitnessRun& run) {
  PowercutTally tally;
  const std::vector<std::size_t> newest = NewestPerSlot(run);
  CountOverwritten(tally, run.acks.size() - newest.size());
  for (std::size_t i : newest) CountRecord(tally, run.acks[i].sequence, false, false);
  return tally;
}

std::vector<std::size_t> NewestPerSlot(const WitnessRun& run) {
  if (run.slots == 0) return {};
  std::vector<std::size_t> newest;
  // Acks come in ascending order: with no more acks than slots each is its slot's only one.
  if (run.acks.size() <= run.slots) {
    newest.resize(run.acks.size());
    for (std::size_t i = 0; i < newest.size(); ++i) newest[i] = i;
    return newest;
  }
  std::vector<std::size_t> at_slot(static_cast<std::size_t>(run.slots), SIZE_MAX);
  for (std::size_t i = 0; i < run.acks.size(); ++i) {
    at_slot[static_cast<std::size_t>(run.acks[i].sequence % run.slots)] = i;
  }
  for (std::size_t i : at_slot) {
    if (i != SIZE_MAX) newest.push_back(i);
  }
  std::sort(newest.begin(), newest.end());
  return newest;
}

Result<PowercutTally> ReadBackRecords(platform::Platform& platform, int fd, const WitnessRun& run) {
  PowercutTally tally;
  std::vector<std::uint8_t> slot(run.record_size);
  const std::vector<std::size_t> newest = NewestPerSlot(run);
  const std::uint64_t highest = HighestAcked(run);
  CountOverwritten(tally, run.acks.size() - newest.size());
  for (std::size_t i : newest) {
    const WitnessAck& a = run.acks[i];
    Result<std::size_t> got =
        platform.PRead(fd, slot.data(), slot.size(), a.sequence % run.slots * run.record_size);
    if (!got.ok()) return got.status();
    if (*got < slot.size()) {
      std::fill(slot.begin() + static_cast<std::ptrdiff_t>(*got), slot.end(), 0);
    }
    CountState(tally, a.sequence,
               CheckSlot(slot, a.sequence, run.run_id, a.checksum, run.slots, highest));
  }
  return tally;
}

}  // namespace durprobe::probes
