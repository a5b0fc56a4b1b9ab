#include "probes/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>

#include "probes/statistics.h"

namespace durprobe::probes {
namespace {

TEST(HistogramTest, EmptyHistogramReportsZeros) {
  Histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.ValueAtRank(0), 0u);
  EXPECT_EQ(Percentile(h, 0.5), 0u);
}

TEST(HistogramTest, SmallValuesAreExact) {
  Histogram h;
  for (std::uint64_t v = 0; v < Histogram::kSubBuckets; ++v) h.Record(v);
  for (std::uint64_t v = 0; v < Histogram::kSubBuckets; ++v) EXPECT_EQ(h.ValueAtRank(v), v);
}

TEST(HistogramTest, BucketsTileTheRangeWithoutGaps) {
  for (int i = 0; i + 1 < Histogram::kBucketCount; ++i) {
    ASSERT_EQ(Histogram::BucketHigh(i), Histogram::BucketLow(i + 1)) << "bucket " << i;
  }
}

TEST(HistogramTest, RelativeErrorStaysUnderOnePercent) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<std::uint64_t> exp(0, 38);
  for (int i = 0; i < 200000; ++i) {
    std::uint64_t v = (std::uint64_t{1} << exp(rng)) + rng() % 1000003;
    Histogram h;
    h.Record(v);
    h.Record(v * 3 + 1);  // so min/max clamping does not hide the bucket midpoint
    h.Record(v / 3);
    std::uint64_t got = h.ValueAtRank(1);
    double err =
        std::abs(static_cast<double>(got) - static_cast<double>(v)) / static_cast<double>(v);
    ASSERT_LT(err, 0.01) << "value " << v << " read back as " << got;
  }
}

TEST(HistogramTest, KeepsExactMinMaxAndMean) {
  Histogram h;
  h.Record(1000);
  h.Record(3000);
  h.Record(123456789);
  EXPECT_EQ(h.min(), 1000u);
  EXPECT_EQ(h.max(), 123456789u);
  EXPECT_DOUBLE_EQ(h.mean(), (1000.0 + 3000.0 + 123456789.0) / 3.0);
}

TEST(HistogramTest, MergeEqualsRecordingEverything) {
  Histogram a, b, all;
  for (std::uint64_t v = 1; v < 5000; v += 7) {
    (v % 2 ? a : b).Record(v * 1000);
    all.Record(v * 1000);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  for (double q : {0.1, 0.5, 0.9, 0.99}) EXPECT_EQ(Percentile(a, q), Percentile(all, q));
}

// An empty histogram has no minimum to keep: merged into, it takes the other's (rounds of a
// probe merge into an empty one first).
TEST(HistogramTest, MergeIntoAnEmptyHistogramTakesTheOthersMinimum) {
  Histogram empty, other;
  other.Record(5000);
  other.Record(7000);
  empty.Merge(other);
  EXPECT_EQ(empty.min(), 5000u);
  EXPECT_EQ(empty.max(), 7000u);
  EXPECT_EQ(empty.count(), 2u);
}

TEST(HistogramTest, NonEmptyBucketsKeepEveryValueUnderItsInclusiveBound) {
  Histogram h;
  std::vector<std::uint64_t> values = {5, 5, 127, 128, 1'000'000, 1'003'000, 2'000'000'000};
  for (std::uint64_t v : values) h.Record(v);
  std::vector<HistogramBucket> buckets = NonEmptyBuckets(h);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    total += buckets[i].count;
    if (i > 0) {
      EXPECT_LT(buckets[i - 1].upper_bound_ns, buckets[i].upper_bound_ns);
    }
  }
  EXPECT_EQ(total, h.count());
  // Exact below 128: the bound is the value itself.
  EXPECT_EQ(buckets[0], (HistogramBucket{5, 2}));
  EXPECT_EQ(buckets[1], (HistogramBucket{127, 1}));
  EXPECT_EQ(buckets[2], (HistogramBucket{128, 1}));
  // Every value sits in the first bucket whose bound is at or above it, within 1/128 of it.
  for (std::uint64_t v : values) {
    auto it = std::find_if(buckets.begin(), buckets.end(),
                           [v](const HistogramBucket& b) { return b.upper_bound_ns >= v; });
    ASSERT_NE(it, buckets.end()) << v;
    EXPECT_LE(double(it->upper_bound_ns - v), double(v) / 128.0) << v;
  }
  EXPECT_TRUE(NonEmptyBuckets(Histogram()).empty());
}

}  // namespace
}  // namespace durprobe::probes
