// A FAIL row shows the comparison that failed (issue 22, point 4): "3.97 ms >= 1.00 us", never the
// rule's own "3.97 ms < 1.00 us".
#include <gtest/gtest.h>

#include "model/report.h"

namespace durprobe::model {
namespace {

CheckResult Checked(CheckOutcome outcome, const std::string& comparison, bool measured = true) {
  CheckResult c;
  c.outcome = outcome;
  c.comparison = comparison;
  if (measured) c.measured = 1.0;
  return c;
}

TEST(RelationShownTest, APassShowsTheRuleAndAFailItsNegation) {
  EXPECT_EQ(RelationShown(Checked(CheckOutcome::kPass, "<")), "<");
  EXPECT_EQ(RelationShown(Checked(CheckOutcome::kFail, "<")), ">=");
  EXPECT_EQ(RelationShown(Checked(CheckOutcome::kFail, ">=")), "<");
  EXPECT_EQ(RelationShown(Checked(CheckOutcome::kFail, "<=")), ">");
  EXPECT_EQ(RelationShown(Checked(CheckOutcome::kFail, "==")), "!=");
  EXPECT_EQ(RelationShown(Checked(CheckOutcome::kError, "<", false)), "<");
}

}  // namespace
}  // namespace durprobe::model
