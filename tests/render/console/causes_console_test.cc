// The causes section's text: a ratio below 1, written 1/Nx, is explained once above the first
// cause that uses one, and only then (issue 57: `1/1.02x` was on screen with no word).
#include "render/console/causes_console.h"

#include <gtest/gtest.h>

#include <sstream>

namespace durprobe::render::console {
namespace {

explain::Cause CauseSaying(const std::string& evidence) {
  explain::Cause c;
  c.key = "barrier";
  c.score = 1.0;
  c.evidence = evidence;
  c.advice = "remount it";
  return c;
}

TEST(CausesConsoleTest, ARatioBelowOneIsExplainedOnceBeforeItsFirstUse) {
  std::ostringstream out;
  PrintCauses({CauseSaying("its per-operation cost (1/1.04x, 10.1 us vs 10.5 us) is equal"),
               CauseSaying("its fdatasync overwrite is 1/170x a's")},
              out);
  const std::string text = out.str();
  const std::size_t legend = text.find("(a ratio below 1 is written 1/Nx: 1/2.00x is half)");
  ASSERT_NE(legend, std::string::npos) << text;
  EXPECT_LT(legend, text.find("1/1.04x")) << text;
  EXPECT_EQ(text.find("a ratio below 1", legend + 2), std::string::npos) << "once\n" << text;
  std::ostringstream above_one;
  PrintCauses({CauseSaying("its fdatasync overwrite is 3.85x a's")}, above_one);
  EXPECT_EQ(above_one.str().find("a ratio below 1"), std::string::npos) << above_one.str();
}

}  // namespace
}  // namespace durprobe::render::console
