#include "probes/statistics.h"

#include <gtest/gtest.h>

#include <cmath>

namespace durprobe::probes {
namespace {

Histogram OneToN(std::uint64_t n, std::uint64_t scale = 1) {
  Histogram h;
  for (std::uint64_t v = 1; v <= n; ++v) h.Record(v * scale);
  return h;
}

TEST(StatisticsTest, NearestRankPercentilesOnExactValues) {
  Histogram h = OneToN(100);  // values 1..100 are below kSubBuckets: exact
  EXPECT_EQ(Percentile(h, 0.0), 1u);
  EXPECT_EQ(Percentile(h, 0.5), 50u);
  EXPECT_EQ(Percentile(h, 0.9), 90u);
  EXPECT_EQ(Percentile(h, 0.99), 99u);
  EXPECT_EQ(Percentile(h, 1.0), 100u);
}

// n = 101 and p99.9 of 100 tell nearest rank (ceil) from rounding down, which n = 100 cannot.
TEST(StatisticsTest, NearestRankRoundsUpOffTheRoundSampleCounts) {
  Histogram h = OneToN(101);
  EXPECT_EQ(Percentile(h, 0.5), 51u);
  EXPECT_EQ(Percentile(h, 0.9), 91u);
  EXPECT_EQ(Percentile(h, 0.99), 100u);
  EXPECT_EQ(Percentile(OneToN(100), 0.999), 100u);
}

TEST(StatisticsTest, SummaryIsOrdered) {
  Histogram h = OneToN(10000, 1000);
  LatencySummary s = Summarize(h);
  EXPECT_EQ(s.count, 10000u);
  EXPECT_LE(s.min, s.p50);
  EXPECT_LE(s.p50, s.p90);
  EXPECT_LE(s.p90, s.p99);
  EXPECT_LE(s.p99, s.p999);
  EXPECT_LE(s.p999, s.max);
  EXPECT_LE(s.p50_ci_low, s.p50);
  EXPECT_GE(s.p50_ci_high, s.p50);
  EXPECT_NEAR(s.mean, 5000.5 * 1000, 1.0);
}

TEST(StatisticsTest, AnIntervalNeedsTwentyOperationsOverHalfASecond) {
  EXPECT_EQ(kMinCiOperations, 20u);
  EXPECT_DOUBLE_EQ(kMinCiSeconds, 0.5);
  EXPECT_FALSE(CiSupported(1, 10.0));
  EXPECT_FALSE(CiSupported(19, 10.0));
  EXPECT_FALSE(CiSupported(20, 0.499));
  EXPECT_FALSE(CiSupported(100'000, 0.1));
  EXPECT_TRUE(CiSupported(20, 0.5));
  EXPECT_TRUE(CiSupported(1234, 2.0));
}

TEST(StatisticsTest, MedianIntervalUsesOrderStatisticRanks) {
  // n = 10000: ranks 5000 -/+ 1.96 * 100 / 2 = 98, so about values 4902 .. 5098 (x1000).
  Histogram h = OneToN(10000, 1000);
  Interval ci = MedianConfidenceInterval(h);
  EXPECT_NEAR(static_cast<double>(ci.low), 4902e3, 4902e3 * 0.01);
  EXPECT_NEAR(static_cast<double>(ci.high), 5099e3, 5099e3 * 0.01);
  EXPECT_NEAR(ci.relative_half_width, 0.0197, 0.002);
}

TEST(StatisticsTest, IntervalNarrowsWithMoreSamples) {
  double small = MedianConfidenceInterval(OneToN(100, 1000)).relative_half_width;
  double large = MedianConfidenceInterval(OneToN(10000, 1000)).relative_half_width;
  EXPECT_LT(large, small);
}

TEST(StatisticsTest, ConstantLatencyHasZeroWidthInterval) {
  Histogram h;
  for (int i = 0; i < 50; ++i) h.Record(123456);
  EXPECT_EQ(MedianConfidenceInterval(h).relative_half_width, 0.0);
}

TEST(StatisticsTest, EmptyHistogramHasUndefinedInterval) {
  Histogram h;
  EXPECT_TRUE(std::isinf(MedianConfidenceInterval(h).relative_half_width));
}

}  // namespace
}  // namespace durprobe::probes

namespace durprobe::probes {
namespace {

TEST(ModesTest, TwoSeparatedClustersAreBimodal) {
  Histogram h;
  for (int i = 0; i < 700; ++i) h.Record(50'000 + (i % 7) * 1000);       // ~50 us
  for (int i = 0; i < 300; ++i) h.Record(4'000'000 + (i % 5) * 10'000);  // ~4 ms
  Modes m = FindModes(h);
  ASSERT_TRUE(m.bimodal);
  // Each cluster's median, to the histogram's 1/128 resolution: not a power-of-two row's middle
  // (3.15 ms for operations at 4.0 ms).
  EXPECT_NEAR(static_cast<double>(m.low), 53e3, 53e3 * 0.01);
  EXPECT_NEAR(static_cast<double>(m.high), 4.02e6, 4.02e6 * 0.01);
  EXPECT_NEAR(m.high_share, 0.3, 0.01);
  EXPECT_TRUE(Summarize(h).bimodal);
}

TEST(ModesTest, ClustersArePlacedWhereTheOperationsAre) {
  // A fast cluster at 60-70 us and a slow one at 4.0 ms, as on a throttled virtual disk.
  Histogram h;
  for (int i = 0; i < 600; ++i) h.Record(60'000 + (i % 11) * 1000);
  for (int i = 0; i < 400; ++i) h.Record(4'000'000);
  Modes m = FindModes(h);
  ASSERT_TRUE(m.bimodal);
  EXPECT_NEAR(static_cast<double>(m.low), 65e3, 65e3 * 0.01);
  EXPECT_NEAR(static_cast<double>(m.high), 4.0e6, 4.0e6 * 0.01);
  EXPECT_DOUBLE_EQ(m.high_share, 0.4);
}

TEST(ModesTest, OneClusterWithATailIsNot) {
  Histogram h;
  for (int i = 0; i < 1000; ++i) h.Record(100'000 + (i % 50) * 2000);
  for (int i = 0; i < 10; ++i) h.Record(5'000'000);  // 1% outliers: a tail, not a mode
  EXPECT_FALSE(FindModes(h).bimodal);
}

TEST(ModesTest, AWideContinuousSpreadIsNot) {
  Histogram h;
  for (std::uint64_t v = 1000; v < 10'000'000; v = v * 11 / 10) {
    for (int k = 0; k < 5; ++k) h.Record(v);
  }
  EXPECT_FALSE(FindModes(h).bimodal);
}

TEST(ModesTest, TooFewSamplesSayNothing) {
  Histogram h;
  for (int i = 0; i < 5; ++i) h.Record(1000);
  for (int i = 0; i < 5; ++i) h.Record(1'000'000);
  EXPECT_FALSE(FindModes(h).bimodal);
}

TEST(StatisticsTest, TailIntervalUsesBinomialRanksAroundTheQuantile) {
  Histogram h = OneToN(100);  // exact values 1..100
  // n=100, q=0.99: ranks 99 -/+ 1.96*sqrt(0.99) = 97.05..100.95, clamped to the data.
  Interval ci = QuantileConfidenceInterval(h, 0.99);
  EXPECT_EQ(ci.low, 97u);
  EXPECT_EQ(ci.high, 100u);
  Histogram big = OneToN(10000, 1000);
  Interval wide = QuantileConfidenceInterval(OneToN(200, 1000), 0.99);
  Interval narrow = QuantileConfidenceInterval(big, 0.99);
  EXPECT_LT(narrow.relative_half_width, wide.relative_half_width);
  LatencySummary s = Summarize(big);
  EXPECT_LE(s.p99_ci_low, s.p99);
  EXPECT_GE(s.p99_ci_high, s.p99);
  EXPECT_LE(s.p90, s.p95);
  EXPECT_LE(s.p95, s.p99);
}

TEST(StatisticsTest, CompactBucketsKeepEveryRecording) {
  Histogram h = OneToN(5000, 977);
  std::vector<HistogramBucket> buckets = NonEmptyBuckets(h);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    total += buckets[i].count;
    if (i > 0) {
      EXPECT_LT(buckets[i - 1].upper_bound_ns, buckets[i].upper_bound_ns);
    }
  }
  EXPECT_EQ(total, 5000u);
  EXPECT_GE(buckets.back().upper_bound_ns, h.max());
  EXPECT_TRUE(NonEmptyBuckets(Histogram()).empty());
}

// The binomial's lower tail, exact on small cases, and still right where p^0's term alone
// underflows (a million samples).
TEST(StatisticsTest, BinomialAtMostIsExactAndHoldsForLargeCounts) {
  EXPECT_DOUBLE_EQ(BinomialAtMost(10, 10, 0.3), 1.0);
  EXPECT_NEAR(BinomialAtMost(2, 0, 0.5), 0.25, 1e-12);
  EXPECT_NEAR(BinomialAtMost(3, 1, 0.5), 0.5, 1e-12);
  EXPECT_NEAR(BinomialAtMost(367, 0, 0.01), std::pow(0.99, 367), 1e-12);
  EXPECT_NEAR(BinomialAtMost(53, 2, 0.01), 0.98, 0.005);  // 3 of 53 over: 1.7% by chance
  const double half = BinomialAtMost(1'000'000, 10'000, 0.01);
  EXPECT_GT(half, 0.49);
  EXPECT_LT(half, 0.52);
  EXPECT_LT(BinomialAtMost(1'000'000, 9'000, 0.01), 1e-10);
  EXPECT_GT(BinomialAtMost(1'000'000, 9'900, 0.01), 0.1);
}

TEST(StatisticsTest, StudentTIsTheTableTo30ThenNearTheNormal) {
  EXPECT_DOUBLE_EQ(StudentT975(1), 12.706);
  EXPECT_DOUBLE_EQ(StudentT975(4), 2.776);
  EXPECT_DOUBLE_EQ(StudentT975(30), 2.042);
  EXPECT_NEAR(StudentT975(31), 2.040, 0.001);
  EXPECT_NEAR(StudentT975(120), 1.980, 0.001);
  EXPECT_LT(StudentT975(100000), 1.9601);
}

}  // namespace
}  // namespace durprobe::probes
