// Flush accounting in the timed loop (probes/flush_tally.h), on a fake clock and a fake device
// whose stat file counts what the test says: a flush per honest sync, none for a dropped one,
// one per control write where plain writes flush, and a background rate in time. The loop cuts
// the timed phase into slices with a control and an idle slice after each; per_op is what the
// sync added, less the background and the control.
#include "probes/flush_tally.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "platform/block_counters.h"
#include "probes/timed_loop.h"
#include "tests/support/fault_platform.h"

namespace durprobe::probes {
namespace flush_tally_test {

constexpr std::uint64_t kMs = 1'000'000;

// The fake device "dev0" under /fake-sys: flushes as the test's counters and the clock say.
class CountingPlatform final : public platform::ForwardingPlatform {
 public:
  explicit CountingPlatform(platform::FaultPlatform& clock)
      : ForwardingPlatform(clock), clock_(clock) {}

  Result<std::string> ReadTextFile(const std::string& path, std::size_t max_bytes) override {
    if (path != "/fake-sys/class/block/dev0/stat") return target().ReadTextFile(path, max_bytes);
    ++reads;
    const double background =
        background_per_sec * static_cast<double>(clock_.NowNanos() - start_ns) / 1e9;
    const std::uint64_t flushes = flushed + static_cast<std::uint64_t>(background);
    return fmt::format("1 0 8 0 {} 0 {} 0 0 0 0 0 0 0 0 {} 0\n", writes, writes * 8, flushes);
  }
  std::uint64_t NowNanos() override { return clock_.NowNanos(); }
  void SleepNanos(std::uint64_t ns) override { clock_.AdvanceClock(ns); }

  platform::FaultPlatform& clock_;
  std::uint64_t flushed = 0, writes = 0, reads = 0;
  std::uint64_t start_ns = 0;
  double background_per_sec = 0.0;
};

// 1 ms a write+sync; its sync flushes when honest; its control (a plain write) flushes when
// writes flush by themselves.
class FlushingOp final : public ProbeOp {
 public:
  FlushingOp(CountingPlatform& p, bool honest, bool writes_flush)
      : p_(p), honest_(honest), writes_flush_(writes_flush) {}
  Status Setup() override { return Status::Ok(); }
  Status RunOnce(OpTiming* t) override {
    p_.clock_.AdvanceClock(kMs);
    ++p_.writes;
    if (honest_ || writes_flush_) ++p_.flushed;
    t->end_ns = p_.NowNanos();
    return Status::Ok();
  }
  Status RunControl() override {
    p_.clock_.AdvanceClock(kMs / 100);
    ++p_.writes;
    ++controls;
    if (writes_flush_) ++p_.flushed;
    return Status::Ok();
  }
  bool has_sync_part() const override { return false; }
  Status Teardown() override { return Status::Ok(); }
  std::uint64_t controls = 0;

 private:
  CountingPlatform& p_;
  bool honest_, writes_flush_;
};

StopRule CountingRule() {
  StopRule rule;
  rule.warmup_ops = 0;
  rule.min_ops = 1'000'000;  // never converges: runs to max_ns
  rule.max_ns = 2'000 * kMs;
  rule.flush_counting.devices = {"dev0"};
  rule.flush_counting.sys_root = "/fake-sys";
  rule.flush_counting.how = "the test's device";
  return rule;
}

struct CountedRun {
  LoopOutcome out;
  std::uint64_t controls = 0;
};

CountedRun RunCounted(bool honest, bool writes_flush, double background_per_sec) {
  platform::FaultPlatform clock(platform::Default());
  clock.UseFakeClock();
  CountingPlatform p(clock);
  p.start_ns = clock.NowNanos();
  p.background_per_sec = background_per_sec;
  FlushingOp op(p, honest, writes_flush);
  CountedRun r;
  r.out = RunTimedLoop(p, op, CountingRule());
  r.controls = op.controls;
  return r;
}

TEST(FlushTallyTest, AnHonestSyncFlushesOncePerOperation) {
  CountedRun r = RunCounted(true, false, 0.0);
  const FlushTally& t = r.out.flushes;
  ASSERT_TRUE(t.ok()) << t.unavailable;
  EXPECT_EQ(t.ops, r.out.ops);
  EXPECT_EQ(t.devices.at(0).flushes, r.out.ops);
  EXPECT_DOUBLE_EQ(t.PerOp(), 1.0);
  EXPECT_EQ(t.control_ops, r.controls);
  EXPECT_GT(t.control_ops, 0u);
  EXPECT_DOUBLE_EQ(t.ControlPerWrite(), 0.0);
  EXPECT_GT(t.idle_ns, 0u);
  // The control and idle slices take about 1/16 of the slices' time, untimed.
  EXPECT_LE(t.idle_ns, t.ns / kControlShare + kMs);
  EXPECT_EQ(r.out.elapsed_ns, t.ns) << "the slices are the timed phase";
}

TEST(FlushTallyTest, ADroppedSyncFlushesNothing) {
  CountedRun r = RunCounted(false, false, 0.0);
  ASSERT_TRUE(r.out.flushes.ok());
  EXPECT_EQ(r.out.flushes.devices.at(0).flushes, 0u);
  EXPECT_DOUBLE_EQ(r.out.flushes.PerOp(), 0.0);
  // Every 100 ms slice (100 syncs) went without a flush: each is silent.
  EXPECT_GT(r.out.flushes.silent_slices, 10u);
  EXPECT_EQ(r.out.flushes.silent_ops, r.out.ops);
}

// Syncs that flush leave no slice silent, and neither does a background that flushes in each.
TEST(FlushTallyTest, NoSliceIsSilentWhereAFlushCame) {
  EXPECT_EQ(RunCounted(true, false, 0.0).out.flushes.silent_slices, 0u);
  EXPECT_EQ(RunCounted(false, false, 600.0).out.flushes.silent_slices, 0u);
}

// 600 background flushes a second against 1,000 dropped syncs a second: without the idle
// slices the syncs would read 0.6 flushes each.
TEST(FlushTallyTest, BackgroundFlushesAreNotCreditedToTheSyncs) {
  CountedRun r = RunCounted(false, false, 600.0);
  const FlushTally& t = r.out.flushes;
  ASSERT_TRUE(t.ok());
  EXPECT_GT(static_cast<double>(t.devices.at(0).flushes) / static_cast<double>(t.ops), 0.5);
  EXPECT_NEAR(t.BackgroundPerSec(t.devices.at(0)), 600.0, 60.0);
  EXPECT_LT(t.PerOp(), 0.1);
  CountedRun honest = RunCounted(true, false, 600.0);
  EXPECT_NEAR(honest.out.flushes.PerOp(), 1.0, 0.1);
}

// -o sync: every plain write flushes, so the control does too and the sync adds nothing.
TEST(FlushTallyTest, WritesThatFlushByThemselvesShowInTheControl) {
  CountedRun r = RunCounted(false, true, 0.0);
  const FlushTally& t = r.out.flushes;
  ASSERT_TRUE(t.ok());
  EXPECT_DOUBLE_EQ(t.ControlPerWrite(), 1.0);
  EXPECT_DOUBLE_EQ(t.PerOp(), 0.0);
}

// StopRule::flush_count_decides: three stand-ins for analysis::FlushCountDecides.
bool NeverDecides(const FlushTally&) { return false; }
bool AlwaysDecides(const FlushTally&) { return true; }
bool DecidesOnceTheControlIsHalfTheTimedTime(const FlushTally& t) {
  return t.control_ns >= t.ns / 2;
}

// A 2 s loop of dropped syncs beside 600 background flushes a second, with rule's decider and
// its part ending settle_after_ns after the start (0: no part).
LoopOutcome RunSettling(bool (*decides)(const FlushTally&), std::uint64_t settle_after_ns,
                        std::uint64_t* start_ns) {
  platform::FaultPlatform clock(platform::Default());
  clock.UseFakeClock();
  CountingPlatform p(clock);
  p.start_ns = *start_ns = clock.NowNanos();
  p.background_per_sec = 600.0;
  FlushingOp op(p, false, false);
  StopRule rule = CountingRule();
  rule.flush_count_decides = decides;
  rule.settle_until_ns = settle_after_ns == 0 ? 0 : *start_ns + settle_after_ns;
  LoopOutcome out = RunTimedLoop(p, op, rule);
  return out;
}

// A count the background leaves undecided gets more control (the same writes without the sync,
// with their idle slices) after the operations, until it decides: untimed, so the operations'
// figures stay those of the 2 s timed.
TEST(FlushTallyTest, AnUndecidedCountWatchesTheBackgroundUntilItDecides) {
  std::uint64_t start = 0;
  LoopOutcome out = RunSettling(&DecidesOnceTheControlIsHalfTheTimedTime, 0, &start);
  const FlushTally& t = out.flushes;
  ASSERT_TRUE(t.ok());
  EXPECT_GE(t.control_ns, t.ns / 2);
  EXPECT_LT(t.control_ns, t.ns / 2 + 110 * kMs) << "it stops once the count decides";
  EXPECT_EQ(out.elapsed_ns, t.ns);
  EXPECT_GE(out.wall_ns, t.ns + t.ns / 2);
  EXPECT_NEAR(t.WithoutSyncPerSec(t.devices.at(0)), 600.0, 30.0);
}

// Never for more than twice the timed time, and never past the probe's part of the time left.
TEST(FlushTallyTest, AnUndecidedCountIsWatchedNoLongerThanTwiceTheTimedTimeNorPastItsPart) {
  std::uint64_t start = 0;
  const LoopOutcome plain = RunSettling(nullptr, 0, &start);
  const LoopOutcome open = RunSettling(&NeverDecides, 0, &start);
  ASSERT_EQ(open.flushes.ns, plain.flushes.ns);
  const std::uint64_t extra = open.wall_ns - plain.wall_ns;  // the settling alone
  EXPECT_LE(extra, 2 * open.flushes.ns + 2 * kMs);
  EXPECT_GE(extra, 2 * open.flushes.ns - 2 * 100 * kMs) << "it ran for its whole allowance";
  // The loop itself ends about 2.1 s in (2 s timed, its slices' control and idle after them).
  const LoopOutcome part = RunSettling(&NeverDecides, 2'500 * kMs, &start);
  EXPECT_GT(part.wall_ns, plain.wall_ns) << "it settled until its part";
  EXPECT_LE(part.wall_ns, 2'500 * kMs + 2 * kMs) << "it ended past its part";
}

// A decided count ends with its operations: the control is the slices' own.
TEST(FlushTallyTest, ADecidedCountEndsWithItsOperations) {
  std::uint64_t start = 0;
  LoopOutcome decided = RunSettling(&AlwaysDecides, 0, &start);
  LoopOutcome plain = RunSettling(nullptr, 0, &start);
  EXPECT_EQ(decided.flushes.control_ns, plain.flushes.control_ns);
  EXPECT_EQ(decided.wall_ns, plain.wall_ns);
  EXPECT_LE(decided.flushes.control_ns, decided.flushes.ns / kControlShare + 20 * kMs);
}

TEST(FlushTallyTest, NothingIsCountedUnlessAsked) {
  platform::FaultPlatform clock(platform::Default());
  clock.UseFakeClock();
  CountingPlatform p(clock);
  FlushingOp op(p, true, false);
  StopRule rule = CountingRule();
  rule.flush_counting = {};
  LoopOutcome out = RunTimedLoop(p, op, rule);
  EXPECT_FALSE(out.flushes.counted);
  EXPECT_EQ(p.reads, 0u);
  EXPECT_EQ(op.controls, 0u) << "no control runs when nothing is counted";
}

TEST(FlushTallyTest, AnUnreadableCounterIsUnavailableWithItsReasonNeverZero) {
  platform::FaultPlatform clock(platform::Default());
  clock.UseFakeClock();
  CountingPlatform p(clock);
  FlushingOp op(p, true, false);
  StopRule rule = CountingRule();
  rule.flush_counting.devices = {"missing0"};
  LoopOutcome out = RunTimedLoop(p, op, rule);
  EXPECT_TRUE(out.flushes.counted);
  EXPECT_FALSE(out.flushes.ok());
  EXPECT_NE(out.flushes.unavailable.find("missing0"), std::string::npos) << out.flushes.unavailable;
  EXPECT_TRUE(out.flushes.devices.empty());
}

// The upper bound takes away the fewest flushes the control's count allows (a one-sided 95%
// Poisson lower bound): for a count of 4, about 1.37 (the exact bound is 1.366), so a bound
// never takes away more than the count itself, and the upper bound never reads under per_op.
TEST(FlushTallyTest, TheUpperBoundTakesAwayTheFewestFlushesTheControlsCountAllows) {
  // 100 syncs in 1 s with 85 flushes; the same writes without the sync flushed 4 in 50 ms.
  FlushTally t{.counted = true,
               .devices = {{"vda", 85, 100, 4, 0}},
               .ops = 100,
               .ns = 1000 * kMs,
               .control_ops = 100,
               .control_ns = 50 * kMs};
  const DeviceFlushes& d = t.devices[0];
  EXPECT_DOUBLE_EQ(t.PerOp(d), (85.0 - 4.0 * 20) / 100);
  const double least = 85.0 - t.PerOpUpperBound(d) * 100;  // flushes taken away, over 1 s
  EXPECT_NEAR(least / 20, 1.366, 0.01) << "the bound on the control's 4 flushes";
  for (std::uint64_t k : {1, 2, 4, 10, 50, 400}) {
    t.devices[0].control_flushes = k;
    t.devices[0].flushes = 100 + 20 * k;
    EXPECT_GE(t.PerOpUpperBound(t.devices[0]), t.PerOp(t.devices[0])) << k << " control flushes";
  }
  t.devices[0].control_flushes = 0;
  EXPECT_DOUBLE_EQ(t.PerOpUpperBound(t.devices[0]), t.PerOp(t.devices[0]));
}

TEST(FlushTallyTest, MergeAddsRoundsDeviceByDevice) {
  FlushTally a{.counted = true, .devices = {{"vda", 10, 10, 0, 1}}, .ops = 10, .ns = kMs * 10};
  FlushTally b{.counted = true,
               .devices = {{"vda", 5, 5, 1, 0}, {"loop0", 5, 5, 0, 0}},
               .ops = 5,
               .ns = kMs * 5,
               .control_ops = 5};
  Merge(a, b);
  ASSERT_EQ(a.devices.size(), 2u);
  EXPECT_EQ(a.devices[0].flushes, 15u);
  EXPECT_EQ(a.devices[0].control_flushes, 1u);
  EXPECT_EQ(a.devices[0].idle_flushes, 1u);
  EXPECT_EQ(a.ops, 15u);
  EXPECT_EQ(a.control_ops, 5u);
  FlushTally none;
  Merge(none, FlushTally{});
  EXPECT_FALSE(none.counted);
}

}  // namespace flush_tally_test
}  // namespace durprobe::probes
