// The waits under a CPU quota (probes/spin_budget.h), on the fake clock: without a quota every
// wait spins whole; under one the spinning stays within the share of the quota in every period,
// each wait still lasts what it was asked, and the timed loop says how it waited and what the
// cgroup's throttling counters moved by.
#include "probes/spin_budget.h"

#include <gtest/gtest.h>

#include <vector>

#include "probes/timed_loop.h"
#include "tests/support/fault_platform.h"

namespace durprobe::probes {
namespace spin_budget_test {

constexpr std::uint64_t kMs = 1'000'000;

platform::CpuQuota Quota(std::uint64_t quota_us, std::uint64_t period_us = 100000) {
  platform::CpuQuota q;
  q.version = "v2";
  q.cgroup = "/sys/fs/cgroup";
  q.quota_us = quota_us;
  q.period_us = period_us;
  q.stat_files = {"/sys/fs/cgroup/cpu.stat"};
  return q;
}

class SpinBudgetTest : public ::testing::Test {
 protected:
  void SetUp() override { fake_.UseFakeClock(); }
  platform::FaultPlatform fake_{platform::Default()};
};

TEST_F(SpinBudgetTest, WithoutAQuotaEveryWaitSpinsWhole) {
  SpinBudget budget(fake_, platform::CpuQuota{});
  EXPECT_FALSE(budget.limited());
  std::uint64_t t0 = fake_.NowNanos();
  for (int i = 0; i < 100; ++i) budget.Wait(6 * kMs);
  EXPECT_EQ(fake_.NowNanos() - t0, 600 * kMs);
  EXPECT_EQ(fake_.spun_ns(), 600 * kMs);
  EXPECT_EQ(budget.slept_ns(), 0u);
}

TEST_F(SpinBudgetTest, UnderAQuotaNoPeriodSpinsMoreThanTwiceTheShare) {
  // etcd's pacing, 150 waits a second of about 6.6 ms, under half a CPU (the DaemonSet's 500m).
  SpinBudget budget(fake_, Quota(50000));
  ASSERT_TRUE(budget.limited());
  struct Point {
    std::uint64_t at, spun;
  };
  std::vector<Point> points{{fake_.NowNanos(), 0}};
  for (int i = 0; i < 300; ++i) {
    std::uint64_t before = fake_.NowNanos();
    budget.Wait(6'600'000);
    EXPECT_EQ(fake_.NowNanos() - before, 6'600'000u) << "a wait lasts what it was asked";
    fake_.AdvanceClock(67'000);  // the sync between waits
    points.push_back({fake_.NowNanos(), fake_.spun_ns()});
  }
  EXPECT_EQ(budget.spun_ns(), fake_.spun_ns());
  EXPECT_EQ(budget.spun_ns() + budget.slept_ns(), 300 * 6'600'000u);
  // Over any 100 ms (one CFS period) the waits spin at most 2 x 0.4 of the 50 ms quota.
  const std::uint64_t limit = static_cast<std::uint64_t>(2 * kQuotaSpinShare * 50 * kMs);
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t j = i + 1; j < points.size() && points[j].at - points[i].at <= 100 * kMs;
         ++j) {
      // The window [i, j] is covered by the waits between them, plus one wait on each side.
      EXPECT_LE(points[j].spun - points[i].spun, limit + 6'600'000u) << i << ".." << j;
    }
  }
  // After the first period's bucket is spent, each wait spins its share: 0.2 of 6.6 ms.
  std::uint64_t late = points.back().spun - points[150].spun;
  EXPECT_NEAR(static_cast<double>(late) / 150.0, 0.2 * 6'673'000, 20'000);
}

TEST_F(SpinBudgetTest, TakeGivesWhatTheBucketHoldsAndWhatTheWaitEarns) {
  SpinBudget budget(fake_, Quota(10000));    // 0.1 CPU: 4 ms of bucket, 0.04 ns per ns
  EXPECT_EQ(budget.Take(2 * kMs), 2 * kMs);  // the full bucket pays for a short wait
  // What is left (2 ms, plus 0.04 x 2 ms the first wait earned), plus 0.04 x 100 ms earned
  // during this one.
  EXPECT_NEAR(double(budget.Take(100 * kMs)), 2'080'000 + 4 * kMs, 10);
  fake_.AdvanceClock(200 * kMs);  // the bucket refills, but never past its cap
  EXPECT_EQ(budget.Take(0), 0u);
  EXPECT_NEAR(double(budget.Take(10 * kMs)), 4 * kMs + 400'000, 10);
}

TEST_F(SpinBudgetTest, ThePacedLoopSaysItSleptPartOfItsWaitsAndCountsTheThrottling) {
  class Op final : public ProbeOp {
   public:
    explicit Op(platform::FaultPlatform& p) : p_(p) {}
    Status Setup() override { return Status::Ok(); }
    Status RunOnce(OpTiming* t) override {
      p_.AdvanceClock(1 * kMs);
      t->end_ns = p_.NowNanos();
      return Status::Ok();
    }
    bool has_sync_part() const override { return false; }
    Status Teardown() override { return Status::Ok(); }
    platform::FaultPlatform& p_;
  } op(fake_);
  fake_.SetCpuQuota(Quota(50000));
  fake_.SetCpuThrottling({{100, 3, 9 * kMs}, {110, 7, 30 * kMs}});
  StopRule rule;
  rule.warmup_ops = 0;
  rule.min_ops = 1000;
  rule.max_ns = 1000 * kMs;
  rule.pace_ns = 10 * kMs;
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(out.ops, 101u);
  EXPECT_EQ(out.elapsed_ns, 101 * kMs);  // the waits stay out of the elapsed time either way
  EXPECT_DOUBLE_EQ(out.cpu.quota_cpus, 0.5);
  EXPECT_EQ(out.cpu.wait(), "sleep_then_spin");
  EXPECT_EQ(out.cpu.spun_ns + out.cpu.slept_ns, 900 * kMs);
  EXPECT_LT(out.cpu.spun_ns, 900 * kMs / 2);
  EXPECT_EQ(fake_.throttle_reads(), 2);  // before and after the timed phase
  EXPECT_TRUE(out.cpu.counted);
  EXPECT_TRUE(out.cpu.throttled());
  EXPECT_EQ(out.cpu.throttling, (platform::CpuThrottleCount{10, 4, 21 * kMs}));
}

TEST_F(SpinBudgetTest, RoundTripsUnderAQuotaSpinOnlyWhatTheBudgetAllows) {
  class Op final : public ProbeOp {
   public:
    explicit Op(platform::FaultPlatform& p) : p_(p) {}
    Status Setup() override { return Status::Ok(); }
    Status RunOnce(OpTiming* t) override {
      p_.AdvanceClock(1 * kMs);
      t->end_ns = p_.NowNanos();
      return Status::Ok();
    }
    bool has_sync_part() const override { return false; }
    Status Teardown() override { return Status::Ok(); }
    platform::FaultPlatform& p_;
  } op(fake_);
  fake_.SetCpuQuota(Quota(10000));  // 0.1 CPU
  StopRule rule;
  rule.warmup_ops = 0;
  rule.max_ops = 200;
  rule.min_ops = 1000;
  rule.work_ns = 4 * kMs;
  rule.work_round_trips = 4;
  LoopOutcome out = RunTimedLoop(fake_, op, rule);
  EXPECT_EQ(fake_.round_trips(), 199u * 4);  // the messages still go back and forth
  // 200 ms of work asked for (5 ms an operation, 1 of it the sync), at 0.04 of a CPU earned:
  // the spinning stays near 4 ms of bucket plus 0.04 x 1 s.
  EXPECT_LT(fake_.spun_ns(), 4 * kMs + 40 * kMs + 1 * kMs);
  EXPECT_GT(out.cpu.slept_ns, 700 * kMs);
  EXPECT_EQ(out.cpu.wait(), "sleep_then_spin");
}

}  // namespace spin_budget_test
}  // namespace durprobe::probes
