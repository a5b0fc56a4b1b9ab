// The statistics of a figure over repeats (model/repeats.h): median of N (odd and even), the
// extremes, which repeats count for a p99, and the row's figures made the medians.
#include "model/repeats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace durprobe::model {
namespace {

probes::ProbeResult Repeat(std::uint64_t ops, std::uint64_t p50, std::uint64_t p99, double rate) {
  probes::ProbeResult r;
  r.ops = ops;
  r.latency.count = ops;
  r.latency.p50 = p50;
  r.latency.p99 = p99;
  r.ops_per_sec = rate;
  return r;
}

TEST(RepeatsTest, SpreadOfAnOddCountIsItsMiddleValue) {
  RepeatSpread s = SpreadOf({4.0, 1.0, 9.0});
  EXPECT_EQ(s, (RepeatSpread{4.0, 1.0, 9.0, 3}));
  EXPECT_TRUE(Ranged(s));
}

TEST(RepeatsTest, SpreadOfAnEvenCountIsTheMeanOfTheMiddleTwo) {
  EXPECT_EQ(SpreadOf({10.0, 2.0, 4.0, 8.0}), (RepeatSpread{6.0, 2.0, 10.0, 4}));
}

TEST(RepeatsTest, OneOrNoValueHasNoRange) {
  EXPECT_EQ(SpreadOf({5.0}), (RepeatSpread{5.0, 5.0, 5.0, 1}));
  EXPECT_FALSE(Ranged(SpreadOf({5.0})));
  EXPECT_EQ(SpreadOf({}), RepeatSpread{});
}

TEST(RepeatsTest, AProbesP99CountsOnlyWhereItsRepeatSupportsOne) {
  std::vector<probes::ProbeResult> repeats = {
      Repeat(500, 100, 900, 9000.0), Repeat(50, 400, 4000, 2000.0),  // no p99
      Repeat(300, 150, 1500, 6000.0), Repeat(0, 0, 0, 0.0)};         // timed nothing
  ProbeRepeats r = ProbeRepeatsOf(2, repeats);
  EXPECT_EQ(r.probe, 2u);
  EXPECT_EQ(r.p50_ns, (RepeatSpread{150.0, 100.0, 400.0, 3}));    // fourfold apart: no next run
  EXPECT_EQ(r.p99_ns, (RepeatSpread{1200.0, 900.0, 1500.0, 2}));  // two predict no third
  EXPECT_EQ(r.ops_per_sec, (RepeatSpread{6000.0, 2000.0, 9000.0, 3}));
  std::vector<ProbeRepeats> all = {r};
  EXPECT_EQ(FindRepeats(all, 2), &all[0]);
  EXPECT_EQ(FindRepeats(all, 0), nullptr);
}

TEST(RepeatsTest, TheRowShowsTheMedians) {
  probes::ProbeResult row = Repeat(850, 120, 1000, 7000.0);
  ProbeRepeats r{
      .p50_ns = {150.4, 100, 400, 3}, .p99_ns = {}, .ops_per_sec = {6000, 2000, 9000, 3}};
  UseMedians(row, r);
  EXPECT_EQ(row.latency.p50, 150u);
  EXPECT_EQ(row.latency.p99, 1000u);  // no repeat's p99: the pooled one stays
  EXPECT_EQ(row.ops_per_sec, 6000.0);
  EXPECT_EQ(row.ops, 850u);
}

TEST(RepeatsTest, AConfigurationsRowShowsItsMedianRateAndItsRows) {
  probes::LatencySummary a{.count = 200, .p50 = 3'000'000, .p99 = 9'000'000};
  probes::LatencySummary b{.count = 200, .p50 = 2'000'000, .p99 = 5'000'000};
  probes::LatencySummary c{.count = 20, .p50 = 4'000'000, .p99 = 4'000'000};
  SqliteRepeats r = SqliteRepeatsOf({300.0, 500.0, 250.0}, {a, b, c});
  EXPECT_EQ(r.commits_per_sec, (RepeatSpread{300.0, 250.0, 500.0, 3}));
  EXPECT_EQ(r.p50_ns, (RepeatSpread{3e6, 2e6, 4e6, 3}));
  EXPECT_EQ(r.p99_ns, (RepeatSpread{7e6, 5e6, 9e6, 2}));
  sqlite_bench::CommitResult row;
  row.config.rows_per_commit = 10;
  UseMedians(row, r);
  EXPECT_EQ(row.commits_per_sec, 300.0);
  EXPECT_EQ(row.rows_per_sec, 3000.0);
  EXPECT_EQ(row.latency.p50, 3'000'000u);
  EXPECT_EQ(row.latency.p99, 7'000'000u);
}

TEST(RepeatsTest, TheNextRunsIntervalIsTheLogNormalPredictionOfOneMoreRepeat) {
  // ln 100, ln 110, ln 121: mean ln 110, s = ln 1.1; half-width t(0.975, 2) = 4.303 times
  // s * sqrt(1 + 1/3) = 0.4736, so 110 / e^0.4736 to 110 * e^0.4736.
  const RepeatSpread s = SpreadOf({121.0, 100.0, 110.0});
  ASSERT_TRUE(Predicted(s));
  EXPECT_NEAR(s.next_low, 68.6, 0.1);
  EXPECT_NEAR(s.next_high, 176.6, 0.1);
  // Four say more: t(0.975, 3) = 3.182, and s * sqrt(1 + 1/4).
  const RepeatSpread four = SpreadOf({100.0, 110.0, 110.0, 121.0});
  const double sd = std::log(1.1) * std::sqrt(2.0 / 3.0);
  EXPECT_NEAR(four.next_high, 110.0 * std::exp(3.182 * sd * std::sqrt(1.25)), 0.01);
  EXPECT_LT(four.next_high / four.next_low, s.next_high / s.next_low);
}

TEST(RepeatsTest, RepeatsInOneBucketStillLeaveTheBucketsWidthOpen) {
  const RepeatSpread exact = SpreadOf({1000.0, 1000.0, 1000.0});
  EXPECT_DOUBLE_EQ(exact.next_low, 1000.0);
  EXPECT_DOUBLE_EQ(exact.next_high, 1000.0);
  const RepeatSpread read = SpreadOf({1000.0, 1000.0, 1000.0}, kLatencyResolution);
  // s at least (1/128) / sqrt(12): 4.303 * 0.002255 * 1.1547 = 1.12% each way.
  EXPECT_NEAR(read.next_low, 988.9, 0.2);
  EXPECT_NEAR(read.next_high, 1011.3, 0.2);
}

TEST(RepeatsTest, RepeatsTwofoldApartPredictNoNextRun) {
  EXPECT_FALSE(Predicted(SpreadOf({120e3, 3.99e6, 3.99e6})));
  EXPECT_FALSE(Predicted(SpreadOf({100.0, 150.0, 200.0})));
  EXPECT_TRUE(Predicted(SpreadOf({100.0, 150.0, 199.0})));
  EXPECT_FALSE(Predicted(SpreadOf({100.0, 110.0})));  // two runs predict no third
  EXPECT_FALSE(Predicted(SpreadOf({5.0})));
  EXPECT_FALSE(Predicted(SpreadOf({0.0, 0.0, 0.0})));
}

TEST(RepeatsTest, TheIntervalNeverExcludesARepeat) {
  const RepeatSpread s =
      SpreadOf({100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0,
                112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0, 120.0, 121.0, 122.0, 123.0,
                124.0, 125.0, 126.0, 127.0, 128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 180.0});
  ASSERT_TRUE(Predicted(s));
  EXPECT_LE(s.next_low, s.min);
  EXPECT_GE(s.next_high, s.max);
  EXPECT_EQ(s.next_high, 180.0);  // the outlier lies beyond the interval the others give
}

}  // namespace
}  // namespace durprobe::model
