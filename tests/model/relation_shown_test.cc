// A FAIL row shows the comparison that failed (issue 22, point 4): "3.97 ms >= 1.00 us", never the
// rule's own "3.97 ms < 1.00 us".
#include <gtest/gtest.h>

#include "model/report.h"

namespace durprobe::model {
namespace {

CheckResult Checked(CheckOutcome outcome, CheckComparison comparison, bool measured = true) {
  CheckResult c;
  c.outcome = outcome;
  c.comparison = comparison;
  if (measured) c.measured = 1.0;
  return c;
}

TEST(RelationShownTest, APassShowsTheRuleAndAFailItsNegation) {
  EXPECT_EQ(RelationShown(Checked(CheckOutcome::kPass, CheckComparison::kBelow)), "<");
  EXPECT_EQ(RelationShown(Checked(CheckOutcome::kFail, CheckComparison::kBelow)), ">=");
  EXPECT_EQ(RelationShown(Checked(CheckOutcome::kFail, CheckComparison::kAtLeast)), "<");
  EXPECT_EQ(RelationShown(Checked(CheckOutcome::kFail, CheckComparison::kAtMost)), ">");
  EXPECT_EQ(RelationShown(Checked(CheckOutcome::kFail, CheckComparison::kEqual)), "!=");
  EXPECT_EQ(RelationShown(Checked(CheckOutcome::kError, CheckComparison::kBelow, false)), "<");
}

}  // namespace
}  // namespace durprobe::model
