// The honest device's write under way at the cut (issue 53 item 0): a slot whose newest
// acknowledged record s was being overwritten by the writer's next record there, t = s + slots,
// never acknowledged, is in flight (not a loss) when it holds t whole or each 512-byte sector
// s's or t's; zeros, an older record or a foreign sector stay missing or torn.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "probes/powercut_protocol.h"
#include "probes/powercut_reader.h"
#include "probes/powercut_record.h"

namespace durprobe::probes::powercut_inflight_test {

constexpr char kRun[] = "0123456789abcdef";
constexpr std::uint64_t kSlots = 8;
constexpr std::size_t kBytes = 4096;

std::vector<std::uint8_t> Record(std::uint64_t seq, std::uint64_t* sum = nullptr) {
  std::vector<std::uint8_t> r(kBytes);
  const std::uint64_t s = EncodeRecord(seq, kRun, r);
  if (sum != nullptr) *sum = s;
  return r;
}

// Slot of record 10 (acknowledged, the newest there), the witness's highest ack 12: the writer's
// next record in that slot is 18, never acknowledged.
struct InFlight : ::testing::Test {
  std::uint64_t sum = 0;
  std::vector<std::uint8_t> old_record = Record(10, &sum);
  std::vector<std::uint8_t> new_record = Record(18);
  RecordState Check(const std::vector<std::uint8_t>& slot, std::uint64_t highest = 12) {
    return CheckSlot(slot, 10, kRun, sum, kSlots, highest);
  }
};

TEST_F(InFlight, TheAcknowledgedRecordWholeIsPresent) {
  EXPECT_EQ(Check(old_record), RecordState::kPresent);
}

TEST_F(InFlight, TheNextRecordWholeIsInFlight) {
  EXPECT_EQ(Check(new_record), RecordState::kInFlight);
  // The one after it in the slot, too (the writer went round again with its acks unheard).
  EXPECT_EQ(Check(Record(26)), RecordState::kInFlight);
}

TEST_F(InFlight, ATornInFlightWriteSectorBySectorIsInFlight) {
  // The new record's first half landed, the old second half stayed (the header is t's).
  std::vector<std::uint8_t> mix = old_record;
  std::copy(new_record.begin(), new_record.begin() + 2048, mix.begin());
  EXPECT_EQ(Check(mix), RecordState::kInFlight);
  // Old header, new sectors further on: t is found as s + slots.
  mix = old_record;
  std::copy(new_record.begin() + 1024, new_record.begin() + 1536, mix.begin() + 1024);
  std::copy(new_record.begin() + 3584, new_record.end(), mix.begin() + 3584);
  EXPECT_EQ(Check(mix), RecordState::kInFlight);
}

TEST_F(InFlight, ASectorOfGarbageIsTorn) {
  std::vector<std::uint8_t> mix = old_record;
  std::copy(new_record.begin(), new_record.begin() + 2048, mix.begin());
  mix[3000] ^= 0x40;  // neither record's byte
  EXPECT_EQ(Check(mix), RecordState::kTorn);
}

TEST_F(InFlight, AZeroSectorIsTornAndZerosAreMissing) {
  std::vector<std::uint8_t> mix = new_record;
  std::fill(mix.begin() + 512, mix.begin() + 1024, 0);
  EXPECT_EQ(Check(mix), RecordState::kTorn);
  EXPECT_EQ(Check(std::vector<std::uint8_t>(kBytes, 0)), RecordState::kMissing);
}

TEST_F(InFlight, AnOlderRecordStaysMissing) { EXPECT_EQ(Check(Record(2)), RecordState::kMissing); }

TEST_F(InFlight, ALaterRecordTheWitnessHoldsIsNoExcuse) {
  // Record 18 acknowledged would be the slot's newest ack itself; here, read as 10's slot with
  // the witness holding 18, it cannot be the write under way.
  EXPECT_EQ(Check(new_record, 18), RecordState::kTorn);
  // Another slot's record, or another run's, is not in flight either.
  EXPECT_EQ(Check(Record(19)), RecordState::kTorn);
  std::vector<std::uint8_t> other(kBytes);
  EncodeRecord(18, "fedcba9876543210", other);
  EXPECT_EQ(Check(other), RecordState::kTorn);
}

TEST(InFlightTally, ReadBackCountsInFlightApartAndNotLost) {
  WitnessRun run;
  run.run_id = kRun;
  run.slots = kSlots;
  run.record_size = kBytes;
  for (std::uint64_t seq = 0; seq <= 12; ++seq) run.acks.push_back({seq, 0});
  std::vector<std::uint8_t> r(kBytes);
  for (WitnessAck& a : run.acks) a.checksum = EncodeRecord(a.sequence, kRun, r);
  PowercutTally tally;
  CountOverwritten(tally, run.acks.size() - NewestPerSlot(run).size());
  CountState(tally, 10, RecordState::kInFlight);
  CountState(tally, 11, RecordState::kPresent);
  CountState(tally, 12, RecordState::kTorn);
  EXPECT_EQ(tally.in_flight, 1u);
  EXPECT_EQ(tally.present, 1u);
  EXPECT_EQ(tally.torn, 1u);
  EXPECT_EQ(tally.missing, 0u);
  EXPECT_EQ(tally.lost, std::vector<std::uint64_t>{12});
  EXPECT_EQ(tally.acknowledged, 5u + 3u);
  EXPECT_EQ(HighestAcked(run), 12u);
}

}  // namespace durprobe::probes::powercut_inflight_test
