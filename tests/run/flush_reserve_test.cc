// Which probes keep a reserve of operations for their flush count (run/flush_counting.h
// ReserveFlushEvidence): the durable ones on a counted device, topped up to
// kMinFlushEvidenceOps over compare's rounds, never past the run's deadline; the plain write
// (the page-cache baseline), sync_file_range and a path with no device to count keep none
// beyond the plan's own (check's p99 reserve).
#include <gtest/gtest.h>

#include "analysis/device_flushes.h"
#include "run/flush_counting.h"

namespace durprobe::run {
namespace flush_reserve_test {

using probes::Pattern;
using probes::Primitive;

probes::StopRule Counted() {
  probes::StopRule rule;
  rule.max_ns = 1'000;
  rule.flush_counting.devices = {"vda"};
  return rule;
}

TEST(FlushReserveTest, ADurableProbeOnACountedDeviceKeepsTheEvidenceItNeeds) {
  probes::StopRule r =
      ReserveFlushEvidence(Counted(), {Primitive::kFdatasync, Pattern::kOverwrite}, 77);
  EXPECT_EQ(r.reserved_ops, analysis::kMinFlushEvidenceOps);
  EXPECT_EQ(r.reserve_until_ns, 77u);
  EXPECT_EQ(r.max_ns, 1'000u);  // its share is unchanged: only the count is reserved
  for (Primitive p : {Primitive::kFsync, Primitive::kOdsync, Primitive::kRwfDsync}) {
    EXPECT_EQ(ReserveFlushEvidence(Counted(), {p, Pattern::kOverwrite}, 77).reserved_ops,
              analysis::kMinFlushEvidenceOps);
  }
  EXPECT_EQ(
      ReserveFlushEvidence(Counted(), {Primitive::kDirFsync, Pattern::kCreate}, 77).reserved_ops,
      analysis::kMinFlushEvidenceOps);
}

TEST(FlushReserveTest, ThePlainWriteAndANonDurableSyncKeepNone) {
  EXPECT_EQ(
      ReserveFlushEvidence(Counted(), {Primitive::kNone, Pattern::kOverwrite}, 77).reserved_ops,
      0u);
  EXPECT_EQ(ReserveFlushEvidence(Counted(), {Primitive::kSyncFileRange, Pattern::kOverwrite}, 77)
                .reserved_ops,
            0u);
}

TEST(FlushReserveTest, NoDeviceToCountReservesNothing) {
  probes::StopRule none = Counted();
  none.flush_counting.devices.clear();
  none.flush_counting.unavailable = "tmpfs has no block device";
  EXPECT_EQ(
      ReserveFlushEvidence(none, {Primitive::kFdatasync, Pattern::kOverwrite}, 77).reserved_ops,
      0u);
}

TEST(FlushReserveTest, EarlierRoundsCountTowardsTheReserve) {
  const probes::ProbeSpec spec{Primitive::kFdatasync, Pattern::kOverwrite};
  EXPECT_EQ(ReserveFlushEvidence(Counted(), spec, 77, 15).reserved_ops,
            analysis::kMinFlushEvidenceOps - 15);
  EXPECT_EQ(ReserveFlushEvidence(Counted(), spec, 77, analysis::kMinFlushEvidenceOps).reserved_ops,
            0u);
}

// check's probes keep the operations a p99 rule reads (CheckProbeRule), durable or not, and
// that reserve is larger than the flush count's.
TEST(FlushReserveTest, ThePlansOwnReserveIsKeptAndToppedUp) {
  probes::StopRule check = Counted();
  check.reserved_ops = probes::kTailMinOps;
  EXPECT_EQ(ReserveFlushEvidence(check, {Primitive::kNone, Pattern::kOverwrite}, 77).reserved_ops,
            probes::kTailMinOps);
  probes::StopRule r =
      ReserveFlushEvidence(check, {Primitive::kFdatasync, Pattern::kOverwrite}, 77, 30);
  EXPECT_EQ(r.reserved_ops, probes::kTailMinOps - 30);
  EXPECT_EQ(r.reserve_until_ns, 77u);
}

// With a part of the time for the plan's reserve (run/path_by_path.cc gives each probe its
// part), the plan's reserve ends then and the flush evidence at the run's deadline.
TEST(FlushReserveTest, ThePlansReserveEndsAtItsPartTheEvidenceAtTheRunsDeadline) {
  probes::StopRule check = Counted();
  check.reserved_ops = probes::kTailBoundOps;
  probes::StopRule r =
      ReserveFlushEvidence(check, {Primitive::kFdatasync, Pattern::kOverwrite}, 77, 5, 40);
  EXPECT_EQ(r.reserved_ops, probes::kTailBoundOps - 5);
  EXPECT_EQ(r.reserve_until_ns, 40u);
  EXPECT_EQ(r.evidence_ops, analysis::kMinFlushEvidenceOps - 5);
  EXPECT_EQ(r.evidence_until_ns, 77u);
  probes::StopRule plain =
      ReserveFlushEvidence(check, {Primitive::kNone, Pattern::kOverwrite}, 77, 0, 40);
  EXPECT_EQ(plain.reserve_until_ns, 40u);
  EXPECT_EQ(plain.evidence_ops, 0u);  // no flush count to keep: nothing past the part
}

// A durable probe given its part settles its flush count within it (the control goes on while
// a neighbour's flushes leave the count undecided); without a part (compare's slices), or once
// its evidence is in, or with no flush count to keep, nothing is settled.
TEST(FlushReserveTest, TheFlushCountIsSettledWithinThePart) {
  const probes::ProbeSpec fdatasync{Primitive::kFdatasync, Pattern::kOverwrite};
  probes::StopRule r = ReserveFlushEvidence(Counted(), fdatasync, 77, 0, 40);
  EXPECT_EQ(r.flush_count_decides, &analysis::FlushCountDecides);
  EXPECT_EQ(r.settle_until_ns, 40u);
  EXPECT_EQ(ReserveFlushEvidence(Counted(), fdatasync, 77).flush_count_decides, nullptr);
  EXPECT_EQ(ReserveFlushEvidence(Counted(), fdatasync, 77, analysis::kMinFlushEvidenceOps, 40)
                .flush_count_decides,
            nullptr);
  EXPECT_EQ(ReserveFlushEvidence(Counted(), {Primitive::kNone, Pattern::kOverwrite}, 77, 0, 40)
                .flush_count_decides,
            nullptr);
}

}  // namespace flush_reserve_test
}  // namespace durprobe::run
