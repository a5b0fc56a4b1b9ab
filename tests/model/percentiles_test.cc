// Which percentiles a count supports: p90 from 10 operations, p99 from 100, p99.9 from 1,000.
#include "model/percentiles.h"

#include <gtest/gtest.h>

namespace durprobe::model {
namespace {

TEST(PercentilesTest, ATailPercentileNeedsOneOperationAboveIt) {
  EXPECT_FALSE(PercentileSupported(0.90, 9));
  EXPECT_TRUE(PercentileSupported(0.90, 10));
  EXPECT_FALSE(PercentileSupported(0.99, 0));
  EXPECT_FALSE(PercentileSupported(0.99, 99));
  EXPECT_TRUE(PercentileSupported(0.99, 100));
  EXPECT_FALSE(PercentileSupported(0.999, 999));
  EXPECT_TRUE(PercentileSupported(0.999, 1000));
  EXPECT_TRUE(PercentileSupported(0.999, 123456));
}

TEST(PercentilesTest, SummaryTailsAreAbsentBelowTheirCount) {
  probes::LatencySummary s{.count = 250, .p50 = 10, .p90 = 20, .p99 = 30, .p999 = 40, .max = 40};
  EXPECT_EQ(P90(s), 20u);
  EXPECT_EQ(P99(s), 30u);
  EXPECT_FALSE(P999(s).has_value()) << "p99.9 of 250 operations is the maximum";
  s.count = 99;
  EXPECT_FALSE(P99(s).has_value());
  EXPECT_EQ(P90(s), 20u);
}

// Issue 35 item 5: fio's ladder ends at p99.99, from 10,000 operations; a summary without one
// (a report from before it was written) has none to give.
TEST(PercentilesTest, P9999NeedsTenThousandOperationsAndAValue) {
  probes::LatencySummary s{.count = 10'000, .p999 = 40, .max = 60, .p9999 = 50};
  EXPECT_EQ(P9999(s), 50u);
  s.count = 9'999;
  EXPECT_FALSE(P9999(s).has_value());
  s.count = 20'000;
  s.p9999 = 0;
  EXPECT_FALSE(P9999(s).has_value());
}

}  // namespace
}  // namespace durprobe::model
