#include "analysis/decision.h"

#include <gtest/gtest.h>

namespace durprobe::analysis {
namespace {

TEST(DecisionTest, APenaltyIsDecidedOnlyBeyondTheNoise) {
  EXPECT_EQ(DecidePenalty({2.0, 1.5, 2.6}, 1.25), Decision::kYes);
  // The same ratio whose bound reaches 1x: the noise could undo it.
  EXPECT_EQ(DecidePenalty({2.0, 0.9, 4.0}, 1.25), Decision::kCannotTell);
  EXPECT_EQ(DecidePenalty({2.0, 1.0, 4.0}, 1.25), Decision::kCannotTell);
  // Below the threshold, with a bound: no penalty of that size.
  EXPECT_EQ(DecidePenalty({1.1, 0.8, 1.6}, 1.25), Decision::kNo);
  EXPECT_EQ(DecidePenalty({1.25, 1.01, 1.5}, 1.25), Decision::kYes);
}

TEST(DecisionTest, NoBoundDecidesNothing) {
  // One operation timed on a side: a ratio of 6.69x is no more a penalty than 1.0x is none.
  EXPECT_EQ(DecidePenalty({6.69, std::nullopt, std::nullopt}, 1.25), Decision::kCannotTell);
  EXPECT_EQ(DecidePenalty({1.0, std::nullopt, std::nullopt}, 1.25), Decision::kCannotTell);
  EXPECT_EQ(DecidePenalty({6.69, 6.69, std::nullopt}, 1.25), Decision::kCannotTell);
}

TEST(DecisionTest, ALimitIsDecidedByTheWholeInterval) {
  EXPECT_EQ(DecideBelow(1.0, 4.0, 10.0, 100, 20), Decision::kYes);
  EXPECT_EQ(DecideBelow(10.0, 14.0, 10.0, 100, 20), Decision::kNo);
  EXPECT_EQ(DecideBelow(8.0, 12.0, 10.0, 100, 20), Decision::kCannotTell);
  // An interval of one sample is no interval: 3.52 ms to 3.52 ms decides nothing.
  EXPECT_EQ(DecideBelow(3.52, 3.52, 10.0, 1, 20), Decision::kCannotTell);
  EXPECT_EQ(DecideBelow(3.52, 3.52, 10.0, 20, 20), Decision::kYes);
}

TEST(DecisionTest, NamesAreStable) {
  EXPECT_EQ(NameOf(Decision::kYes), "yes");
  EXPECT_EQ(NameOf(Decision::kNo), "no");
  EXPECT_EQ(NameOf(Decision::kCannotTell), "cannot tell");
}

}  // namespace
}  // namespace durprobe::analysis
