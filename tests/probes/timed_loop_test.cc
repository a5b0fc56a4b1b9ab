// The timed loop's rules, on a fake monotonic clock (FaultPlatform::UseFakeClock), so each count
// and each elapsed time is exact: warm-up ends at its count or its time, the stop rule stops at
// the first check that has min_ops, min_ns and a tight enough median (never past max_ns or
// max_ops), fast operations get their sync timed on one in kSyncSampleEvery, and maintenance is
// left out of both the operations' times and the elapsed time.
#include "probes/timed_loop.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <vector>

#include "probes/runner.h"
#include "tests/probes/scripted_op.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::probes {
namespace {

using testing_support::kMs;
using testing_support::ScriptedOp;

class TimedLoopTest : public ::testing::Test {
 protected:
  void SetUp() override { fake_.UseFakeClock(); }
  platform::FaultPlatform fake_{platform::Default()};
};

StopRule Rule() { return testing_support::ScriptedRule(); }

TEST_F(TimedLoopTest, WarmupEndsAtItsCountAndIsNotTimed) {
  ScriptedOp op(fake_, {1 * kMs}, 0);
  LoopOutcome out = RunTimedLoop(fake_, op, Rule());
  EXPECT_EQ(out.warmup_ops, 5u);
  EXPECT_EQ(op.runs_, out.warmup_ops + out.ops);
  EXPECT_EQ(out.total.count(), out.ops);  // warm-up operations are not in the histogram
}

TEST_F(TimedLoopTest, WarmupEndsAtItsTime) {
  // 20 ms operations: the ones starting at 0, 20 and 40 ms run; the one at 60 ms is timed.
  ScriptedOp op(fake_, {20 * kMs}, 0);
  LoopOutcome out = RunTimedLoop(fake_, op, Rule());
  EXPECT_EQ(out.warmup_ops, 3u);
}

TEST_F(TimedLoopTest, SteadyOperationsStopAtTheFirstCheckPastMinTime) {
  // Every operation takes 1 ms: the median is exact at once, so the rule stops at the first
  // check (every 20 ms) once 200 ms (min_ns) and the 0.5 s of timing an interval is shown from
  // (CiSupported) have passed: after operation 500, at exactly 500 ms.
  ScriptedOp op(fake_, {1 * kMs}, 0);
  LoopOutcome out = RunTimedLoop(fake_, op, Rule());
  EXPECT_TRUE(out.converged);
  EXPECT_TRUE(out.status.ok());
  EXPECT_EQ(out.ops, 500u);
  EXPECT_EQ(out.elapsed_ns, 500 * kMs);
  EXPECT_EQ(out.total.min(), 1 * kMs);
  EXPECT_EQ(out.total.max(), 1 * kMs);
}

TEST_F(TimedLoopTest, MinOpsHoldsTheLoopPastMinTime) {
  // 50 ms operations pass min_ns after 4 operations; min_ops = 30 still holds the loop.
  ScriptedOp op(fake_, {50 * kMs}, 0);
  LoopOutcome out = RunTimedLoop(fake_, op, Rule());
  EXPECT_TRUE(out.converged);
  EXPECT_EQ(out.ops, 30u);
  EXPECT_EQ(out.elapsed_ns, 30 * 50 * kMs);
}

TEST_F(TimedLoopTest, ScatteredOperationsRunToMaxTimeUnconverged) {
  // Half the operations take 1 ms, half 9 ms: the median's interval never narrows to 5%.
  ScriptedOp op(fake_, {1 * kMs, 9 * kMs}, 0);
  LoopOutcome out = RunTimedLoop(fake_, op, Rule());
  EXPECT_FALSE(out.converged);
  EXPECT_TRUE(out.status.ok());
  EXPECT_GE(out.elapsed_ns, 2000 * kMs);
  EXPECT_LT(out.elapsed_ns, 2000 * kMs + 9 * kMs);  // stops at the first operation past max_ns
  EXPECT_EQ(out.total.count(), out.ops);
}

// One operation in fifty takes 10 ms, the rest 1 ms: the median is exact at once, the p99 only
// once the CI's ranks around it all fall in the slow 2%.
std::vector<std::uint64_t> OneSlowInFifty() {
  std::vector<std::uint64_t> ns(50, 1 * kMs);
  ns.back() = 10 * kMs;
  return ns;
}

TEST_F(TimedLoopTest, WithoutATailTargetTheMedianAloneStopsTheLoop) {
  ScriptedOp op(fake_, OneSlowInFifty(), 0);
  LoopOutcome out = RunTimedLoop(fake_, op, Rule());
  EXPECT_TRUE(out.converged);
  EXPECT_LT(out.elapsed_ns, Rule().max_ns);  // stopped early, on the median alone
  EXPECT_GT(QuantileConfidenceInterval(out.total, 0.99).relative_half_width, 0.10);
}

TEST_F(TimedLoopTest, ATailTargetHoldsTheLoopUntilTheP99IsKnown) {
  ScriptedOp op(fake_, OneSlowInFifty(), 0);
  StopRule rule = Rule();
  rule.tail_target_ci = 0.10;
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_TRUE(out.converged);
  ScriptedOp median_only(fake_, OneSlowInFifty(), 0);
  EXPECT_GT(out.ops, RunTimedLoop(fake_, median_only, Rule()).ops);
  EXPECT_LT(out.elapsed_ns, rule.max_ns);  // it did stop: the p99's CI met its target
  EXPECT_LE(QuantileConfidenceInterval(out.total, 0.99).relative_half_width, 0.10);
  EXPECT_GT(Percentile(out.total, 0.99), 9 * kMs);  // the slow 2%, to the bucket
}

TEST(TargetsMetTest, AP99StopNeedsAHundredOperations) {
  StopRule rule;
  rule.tail_target_ci = 0.10;
  Histogram h;
  for (std::uint64_t i = 1; i < kTailMinOps; ++i) h.Record(1 * kMs);
  EXPECT_FALSE(TargetsMet(h, rule));  // 99 equal operations: exact, but too few for a p99
  h.Record(1 * kMs);
  EXPECT_TRUE(TargetsMet(h, rule));
  rule.tail_target_ci = 0.0;
  Histogram few;
  few.Record(1 * kMs);
  EXPECT_TRUE(TargetsMet(few, rule));  // the median's target alone
}

TEST_F(TimedLoopTest, MaxOpsCapsTheLoop) {
  StopRule rule = Rule();
  rule.max_ops = 17;
  ScriptedOp op(fake_, {1 * kMs, 9 * kMs}, 0);
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(out.ops, 17u);
}

TEST_F(TimedLoopTest, AFailureStopsTheLoopAtOnce) {
  ScriptedOp op(fake_, {1 * kMs}, 1 * kMs);
  op.fail_at_ = 5 + 12;  // the 12th timed operation
  LoopOutcome out = RunTimedLoop(fake_, op, Rule());
  EXPECT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.error_number(), EIO);
  EXPECT_EQ(op.runs_, 17u);  // never retried
  EXPECT_EQ(out.ops, 11u);   // the failed operation is not a sample
}

TEST_F(TimedLoopTest, FastOperationsTimeTheSyncOnOneInEight) {
  // 19.999 us per operation in warm-up: under kFastOpNs, so the sync is sampled.
  ScriptedOp op(fake_, {kFastOpNs - 1 - 1000}, 1000);
  StopRule rule = Rule();
  rule.max_ops = 100;
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(out.sync_sample_every, kSyncSampleEvery);
  EXPECT_TRUE(out.has_sync_part);
  EXPECT_EQ(out.ops, 100u);
  EXPECT_EQ(out.total.count(), 100u);
  EXPECT_EQ(out.sync.count(), 13u);  // operations 0, 8, ..., 96
  for (std::size_t i = 0; i < out.ops; ++i) {
    EXPECT_EQ(op.timed_sync_[rule.warmup_ops + i], i % kSyncSampleEvery == 0) << i;
  }
  EXPECT_EQ(out.sync.min(), 1000u);
  EXPECT_EQ(out.sync.max(), 1000u);
}

TEST_F(TimedLoopTest, OperationsAtTheFastLimitTimeEverySync) {
  // Exactly kFastOpNs per operation is not fast: every sync is timed.
  ScriptedOp op(fake_, {kFastOpNs - 1000}, 1000);
  StopRule rule = Rule();
  rule.max_ops = 100;
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(out.sync_sample_every, 1u);
  EXPECT_EQ(out.sync.count(), 100u);
}

// An operation that reads the clock once, at its end (as a write+sync op with an untimed sync).
class OneReadingOp final : public ProbeOp {
 public:
  OneReadingOp(platform::FaultPlatform& p, std::uint64_t ns) : p_(p), ns_(ns) {}
  Status Setup() override { return Status::Ok(); }
  Status RunOnce(OpTiming* t) override {
    p_.AdvanceClock(ns_);
    t->end_ns = p_.NowNanos();
    return Status::Ok();
  }
  bool has_sync_part() const override { return false; }
  Status Teardown() override { return Status::Ok(); }

 private:
  platform::FaultPlatform& p_;
  std::uint64_t ns_;
};

TEST_F(TimedLoopTest, StopRuleChecksAreChargedToNoOperationNorToElapsed) {
  // Every clock reading costs 1 us: an operation is its 1 ms plus its own reading. The stop rule
  // is checked every 20 ms, 25 times before it stops at 500 ms (the 0.5 s of timing an interval
  // is shown from, past min_ns's 200 ms); the loop's reading after each
  // check (its time) must land in no operation and not in the elapsed time.
  constexpr std::uint64_t kUs = 1000;
  fake_.AdvanceClockOnEachRead(1 * kUs);
  OneReadingOp op(fake_, 1 * kMs);
  StopRule rule = Rule();
  rule.warmup_ops = 0;
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  ASSERT_TRUE(out.converged);
  EXPECT_GT(out.ops, 190u);
  EXPECT_EQ(out.total.min(), 1 * kMs + kUs);
  EXPECT_EQ(out.total.max(), 1 * kMs + kUs);
  // The operations' times; the reading that starts each operation (the loop's own recording),
  // except after the 25 checks, the last of which stopped the loop; the final reading.
  EXPECT_EQ(out.elapsed_ns, out.ops * (1 * kMs + kUs) + (out.ops - 25) * kUs + kUs);
}

// An operation that ends (reads its end time) and then goes on working: the loop's own
// recording after an operation, seen from the clock.
class WorkAfterEndOp final : public ProbeOp {
 public:
  WorkAfterEndOp(platform::FaultPlatform& p, std::uint64_t ns, std::uint64_t after_ns)
      : p_(p), ns_(ns), after_ns_(after_ns) {}
  Status Setup() override { return Status::Ok(); }
  Status RunOnce(OpTiming* t) override {
    p_.AdvanceClock(ns_);
    t->end_ns = p_.NowNanos();
    p_.AdvanceClock(after_ns_);
    return Status::Ok();
  }
  bool has_sync_part() const override { return false; }
  Status Teardown() override { return Status::Ok(); }

 private:
  platform::FaultPlatform& p_;
  std::uint64_t ns_, after_ns_;
};

TEST_F(TimedLoopTest, WorkBetweenOperationsLandsInNoOperationButInElapsed) {
  // 1 ms operations, each followed by 0.5 ms of work the loop does not time: every latency is
  // 1 ms, and the elapsed time is wall time, the work included (ops/s is what the loop did).
  WorkAfterEndOp op(fake_, 1 * kMs, kMs / 2);
  StopRule rule = Rule();
  rule.warmup_ops = 0;
  rule.max_ops = 40;
  rule.min_ops = 1000;  // run to max_ops
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  ASSERT_EQ(out.ops, 40u);
  EXPECT_EQ(out.total.min(), 1 * kMs);
  EXPECT_EQ(out.total.max(), 1 * kMs);
  // 40 operations and the work after each: 60 ms of wall time. The stop rule was checked after
  // operations 14 and 28 (20.5 and 41.5 ms in); the gap before each check goes out with it.
  EXPECT_EQ(out.elapsed_ns, 40 * (kMs + kMs / 2) - 2 * (kMs / 2));
}

TEST_F(TimedLoopTest, MaintenanceIsLeftOutOfElapsedAndOfEveryOperation) {
  // Every 10th operation is followed by 1 s of maintenance (a full append file replaced).
  ScriptedOp op(fake_, {1 * kMs}, 0);
  op.maintain_every_ = 10;
  op.maintain_ns_ = 1000 * kMs;
  StopRule rule = Rule();
  rule.warmup_ops = 0;
  rule.max_ops = 50;
  rule.max_ns = 100'000 * kMs;
  rule.min_ops = 1000;  // run to max_ops
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(out.ops, 50u);
  EXPECT_EQ(op.maintenances_, 5u);
  EXPECT_EQ(out.elapsed_ns, 50 * kMs);
  EXPECT_EQ(out.total.max(), 1 * kMs);
}

TEST_F(TimedLoopTest, MaxTimeIsWallTimeMaintenanceIncluded) {
  // max_ns is the probe's share of the user's --budget, so maintenance counts against it: two
  // 1 s maintenances and 20 ms of operations reach a 2 s cap after operation 20.
  ScriptedOp op(fake_, {1 * kMs}, 0);
  op.maintain_every_ = 10;
  op.maintain_ns_ = 1000 * kMs;
  StopRule rule = Rule();
  rule.warmup_ops = 0;
  rule.min_ops = 1000;
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(out.ops, 20u);
  EXPECT_EQ(out.elapsed_ns, 20 * kMs);
  EXPECT_EQ(op.maintenances_, 2u);
}

TEST_F(TimedLoopTest, WorkBeforeEachOperationIsInTheElapsedTimeButInNoLatency) {
  // 1 ms operations, each after 2 ms of work, up to 30 ms: operation k ends at 3k - 2 ms, so the
  // 11th ends past the cap. The work (10 gaps) is spent on the CPU and counted in the elapsed
  // time, so ops / elapsed is one client's commit rate; no operation's latency holds any of it.
  ScriptedOp op(fake_, {1 * kMs}, 0);
  StopRule rule = Rule();
  rule.warmup_ops = 0;
  rule.min_ops = 1000;
  rule.max_ns = 30 * kMs;
  rule.work_ns = 2 * kMs;
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(out.ops, 11u);
  EXPECT_EQ(out.total.max(), 1 * kMs);
  EXPECT_EQ(out.elapsed_ns, 31 * kMs);
  EXPECT_EQ(out.wall_ns, 31 * kMs);
  EXPECT_EQ(fake_.spun_ns(), 20 * kMs);
  EXPECT_EQ(fake_.round_trips(), 0u);  // one spin each
  // The same work as 4 round trips to a partner thread, each side spinning 250 us a message:
  // the same times, and 4 trips before each operation after the first.
  ScriptedOp trips_op(fake_, {1 * kMs}, 0);
  rule.work_round_trips = 4;
  LoopOutcome trips = RunTimedLoop(fake_, trips_op, rule);
  EXPECT_EQ(trips.ops, 11u);
  EXPECT_EQ(trips.elapsed_ns, 31 * kMs);
  EXPECT_EQ(trips.total.max(), 1 * kMs);
  EXPECT_EQ(fake_.round_trips(), 40u);
  EXPECT_EQ(fake_.spun_ns(), 40 * kMs);
}

TEST_F(TimedLoopTest, PacedOperationsStartOnePerPaceAndTheWaitIsUntimed) {
  // 1 ms operations paced at one per 10 ms (100 a second) up to a 1 s cap: they start at 0, 10,
  // ... 1000 ms, so 101 of them, each timed at 1 ms; the waits are in the wall time only.
  ScriptedOp op(fake_, {1 * kMs}, 0);
  StopRule rule = Rule();
  rule.warmup_ops = 0;
  rule.min_ops = 1000;
  rule.max_ns = 1000 * kMs;
  rule.pace_ns = 10 * kMs;
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(out.ops, 101u);
  EXPECT_EQ(out.total.max(), 1 * kMs);
  EXPECT_EQ(out.elapsed_ns, 101 * kMs);
  EXPECT_EQ(out.wall_ns, 1001 * kMs);
  // The waits are spent on the CPU, not asleep: an idle virtual CPU would wake late and add
  // that to the next sync.
  EXPECT_EQ(fake_.spun_ns(), 900 * kMs);
  // Operations slower than the pace run back to back: no wait, and no burst to catch up.
  ScriptedOp slow(fake_, {15 * kMs}, 0);
  rule.max_ns = 150 * kMs;
  LoopOutcome late = RunTimedLoop(fake_, slow, rule);
  EXPECT_EQ(late.ops, 10u);
  EXPECT_EQ(late.wall_ns, late.elapsed_ns);
}

TEST_F(TimedLoopTest, MergeAddsRoundsUpAndKeepsTheFirstFailure) {
  StopRule rule = Rule();
  rule.max_ops = 3;
  ScriptedOp fast(fake_, {1 * kMs}, 0), slow(fake_, {4 * kMs}, 0), failing(fake_, {1 * kMs}, 0);
  failing.fail_at_ = 5 + 2;  // the second timed operation
  LoopOutcome merged = Measure(fake_, fast, rule);
  Merge(merged, Measure(fake_, slow, rule));
  EXPECT_TRUE(merged.status.ok());
  EXPECT_EQ(merged.ops, 6u);
  EXPECT_EQ(merged.total.count(), 6u);
  EXPECT_EQ(merged.total.min(), 1 * kMs);
  EXPECT_EQ(merged.total.max(), 4 * kMs);
  EXPECT_EQ(merged.warmup_ops, 10u);
  EXPECT_EQ(merged.elapsed_ns, 3 * kMs + 12 * kMs);
  Merge(merged, Measure(fake_, failing, rule));
  EXPECT_EQ(merged.status.error_number(), EIO);
  EXPECT_EQ(merged.ops, 7u);  // the failing round's one good operation is kept
  Merge(merged, Measure(fake_, fast, rule));
  EXPECT_EQ(merged.status.error_number(), EIO);  // a later good round does not clear it
}

// The real fdatasync probe on the fake clock: the latency it reports is the latency the sync
// took, and the operation time adds nothing the clock did not see.
TEST_F(TimedLoopTest, RealProbeReportsTheSyncLatencyItWasGiven) {
  testing_support::TempDir dir;
  fake_.AddSyncLatency(3 * kMs);
  StopRule rule;
  rule.warmup_ops = 2;
  rule.min_ops = 10;
  rule.min_ns = 30 * kMs;
  rule.max_ops = 40;
  rule.ci_shown = false;  // its own minimums decide, as for the reference probe
  OpOptions options;
  options.file_size = 1 << 20;
  LoopOutcome loop =
      SampleProbe(fake_, dir.path(), ProbeSpec{Primitive::kFdatasync, Pattern::kOverwrite, 4096},
                  rule, options);
  ASSERT_TRUE(loop.status.ok()) << loop.status.message();
  EXPECT_EQ(loop.ops, 14u);  // checks after 21 ms (7 ops) and 42 ms (14 ops, past 10 and 30 ms)
  EXPECT_EQ(loop.sync.min(), 3 * kMs);
  EXPECT_EQ(loop.sync.max(), 3 * kMs);
  EXPECT_EQ(loop.total.max(), 3 * kMs);
  EXPECT_EQ(loop.elapsed_ns, loop.ops * 3 * kMs);
  // Setup's one fsync of the preallocated file, then one sync per operation.
  EXPECT_EQ(fake_.sync_calls(), static_cast<int>(loop.ops + loop.warmup_ops) + 1);
}

}  // namespace
}  // namespace durprobe::probes
