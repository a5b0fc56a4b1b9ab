// The timed loop's reserve (StopRule::reserved_ops, reserve_until_ns), on the fake clock: a
// durable probe given less time than its flush-count evidence needs still runs the operations
// reserved for it, past max_ns and max_ops, until the reserve's deadline; without a reserve the
// loop stops at max_ns as before, and a reserve is run even when the median converged first.
#include <gtest/gtest.h>

#include <cerrno>

#include "probes/timed_loop.h"
#include "tests/support/fault_platform.h"

namespace durprobe::probes {
namespace reserve_test {

constexpr std::uint64_t kMs = 1'000'000;

// An operation that takes op_ns on the fake clock, its sync the second half.
class SlowOp final : public ProbeOp {
 public:
  SlowOp(platform::FaultPlatform& p, std::uint64_t op_ns) : p_(p), op_ns_(op_ns) {}
  Status Setup() override { return Status::Ok(); }
  Status RunOnce(OpTiming* t) override {
    p_.AdvanceClock(op_ns_ / 2);
    const std::uint64_t s0 = p_.NowNanos();
    p_.AdvanceClock(op_ns_ - op_ns_ / 2);
    t->end_ns = p_.NowNanos();
    t->sync_ns = t->time_sync ? t->end_ns - s0 : 0;
    ++runs_;
    if (fail_at_ != 0 && runs_ == fail_at_) return Status::FromErrno(EIO, "fsync");
    return Status::Ok();
  }
  bool has_sync_part() const override { return true; }
  Status Teardown() override { return Status::Ok(); }

  platform::FaultPlatform& p_;
  std::uint64_t op_ns_;
  std::uint64_t runs_ = 0;
  std::uint64_t fail_at_ = 0;  // 1-based run that fails; 0: none
};

class ReserveTest : public ::testing::Test {
 protected:
  void SetUp() override { fake_.UseFakeClock(); }
  // A probe cut to 30 ms (its share of a spent budget) with no warm-up.
  StopRule Cut() const {
    StopRule rule;
    rule.warmup_ops = 0;
    rule.max_ns = 30 * kMs;
    rule.min_ns = 0;
    return rule;
  }
  platform::FaultPlatform fake_{platform::Default()};
};

TEST_F(ReserveTest, WithoutAReserveASlowProbeStopsAtItsShare) {
  SlowOp op(fake_, 20 * kMs);
  LoopOutcome out = RunTimedLoop(fake_, op, Cut());
  EXPECT_EQ(out.ops, 2u);  // 20 ms, then 40 ms: past the 30 ms share
}

TEST_F(ReserveTest, TheReservedOperationsRunPastTheShare) {
  StopRule rule = Cut();
  rule.reserved_ops = 20;
  rule.reserve_until_ns = fake_.NowNanos() + 10'000 * kMs;
  SlowOp op(fake_, 20 * kMs);
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(out.ops, 20u);  // exactly the reserve: the share was spent long before
}

TEST_F(ReserveTest, TheReservePassesMaxOpsToo) {
  StopRule rule = Cut();
  rule.max_ops = 3;
  rule.reserved_ops = 20;
  SlowOp op(fake_, 1 * kMs);
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(out.ops, 20u);
}

TEST_F(ReserveTest, AReserveAlreadyMetLeavesTheShareInCharge) {
  StopRule rule = Cut();
  rule.reserved_ops = 5;
  SlowOp op(fake_, 1 * kMs);
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(out.ops, 30u);  // 1 ms each until the 30 ms share
}

TEST_F(ReserveTest, TheReserveEndsAtItsDeadline) {
  StopRule rule = Cut();
  rule.reserved_ops = 20;
  rule.reserve_until_ns = fake_.NowNanos() + 100 * kMs;
  SlowOp op(fake_, 20 * kMs);
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(out.ops, 5u);  // the fifth ends at 100 ms: the run's deadline
}

// A probe whose median settles at once (every operation alike) still runs its reserve before it
// stops converged: check's p99 rules read 367 operations, and a probe that stopped at 200 left
// its rule "cannot tell" with time to spare.
TEST_F(ReserveTest, ConvergingEarlyDoesNotEndTheReserve) {
  StopRule rule;
  rule.warmup_ops = 0;
  rule.min_ns = 0;
  rule.max_ns = 10'000 * kMs;
  rule.reserved_ops = 367;
  rule.reserve_until_ns = fake_.NowNanos() + 10'000 * kMs;
  SlowOp op(fake_, 5 * kMs);
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_TRUE(out.converged);
  EXPECT_GE(out.ops, 367u);
  EXPECT_LT(out.ops, 400u);  // and stops soon after: the next check of the stop rule
  rule.reserved_ops = 0;
  LoopOutcome alone = RunTimedLoop(fake_, op, rule);
  EXPECT_TRUE(alone.converged);
  EXPECT_LT(alone.ops, 150u);  // without a reserve: once its interval may be shown (0.5 s)
}

// check's p99 reserve ends at its part of the time left, the flush evidence within it only at
// the run's deadline: a durable probe on a slow server still gets the 20 its verdict reads.
TEST_F(ReserveTest, TheFlushEvidenceOutlastsThePartOfALargerReserve) {
  StopRule rule = Cut();
  rule.reserved_ops = 367;
  rule.reserve_until_ns = fake_.NowNanos() + 100 * kMs;
  rule.evidence_ops = 20;
  rule.evidence_until_ns = fake_.NowNanos() + 10'000 * kMs;
  SlowOp op(fake_, 20 * kMs);
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(out.ops, 20u);  // past the part's 100 ms (5), to the evidence, and no further
  rule.evidence_until_ns = fake_.NowNanos() + 200 * kMs;
  EXPECT_EQ(RunTimedLoop(fake_, op, rule).ops, 10u);  // the evidence's own deadline ends it
}

TEST_F(ReserveTest, AFailureStillStopsTheLoopAtOnce) {
  StopRule rule = Cut();
  rule.reserved_ops = 20;
  SlowOp op(fake_, 20 * kMs);
  op.fail_at_ = 7;
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_FALSE(out.status.ok());
  EXPECT_EQ(op.runs_, 7u);
  EXPECT_EQ(out.ops, 6u);
}

}  // namespace reserve_test
}  // namespace durprobe::probes
