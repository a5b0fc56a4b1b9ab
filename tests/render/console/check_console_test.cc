// The Checks list's words (issue 35 item 3): a row says what was found, not a comparison that
// did not happen.
#include "render/console/check_console.h"

#include <gtest/gtest.h>

#include <sstream>

namespace durprobe::render::console {
namespace {

// The durable rule on an unproven path passes with a warning; it did not measure "yes".
TEST(CheckConsoleTest, AnUnprovenDurablePassSaysNotProvenNotYesEqualsYes) {
  model::CheckResult c;
  c.rule = "durable";
  c.path = "/data";
  c.outcome = model::CheckOutcome::kPass;
  c.warning = true;
  c.measured = 1.0;
  c.threshold = 1.0;
  c.comparison = model::CheckComparison::kEqual;
  c.message = "unproven: device (vda): a volatile write cache without FUA";
  std::ostringstream out;
  PrintChecks({c}, out);
  EXPECT_NE(out.str().find("  PASS*   /data  durable  not proven: unproven: device (vda)"),
            std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find("yes == yes"), std::string::npos) << out.str();
  // A durable path's pass still shows what it compared.
  c.warning = false;
  c.message = "durable: every layer passes syncs on";
  std::ostringstream durable;
  PrintChecks({c}, durable);
  EXPECT_NE(durable.str().find("  PASS    /data  durable  yes == yes: durable"), std::string::npos)
      << durable.str();
}

}  // namespace
}  // namespace durprobe::render::console
