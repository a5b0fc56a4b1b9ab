// The reference probe's rule: 20 ms of warm-up and 100 ms timed at most, and before a probe
// whose share is short, warm-up and timed phase within a tenth of that share.
#include "run/reference.h"

#include <gtest/gtest.h>

namespace durprobe::run {
namespace {

TEST(ReferenceTest, ItsCostIsATenthOfAShortProbesShareAtMost) {
  probes::StopRule unbounded = ReferenceRule();
  EXPECT_EQ(unbounded.warmup_ns, 20'000'000u);
  EXPECT_EQ(unbounded.max_ns, 100'000'000u);
  EXPECT_FALSE(unbounded.ci_shown);  // never shown with an interval: it stops on its own rule

  EXPECT_EQ(ReferenceRule(10'000'000'000).max_ns, 100'000'000u);  // a long share: as before

  probes::StopRule bounded = ReferenceRule(300'000'000);
  EXPECT_LE(bounded.warmup_ns + bounded.max_ns, 30'000'000u);
  EXPECT_GT(bounded.max_ns, 0u);
  EXPECT_GT(ReferenceRule(0).max_ns, 0u);  // a spent share still allows one operation's try
}

}  // namespace
}  // namespace durprobe::run
