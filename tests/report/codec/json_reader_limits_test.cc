// A saved report nested deeper than any report is refused with one line before nlohmann's tree
// is built and walked (each walk recurses).
#include <gtest/gtest.h>

#include <string>

#include "report/codec/json_reader.h"

namespace durprobe::report {
namespace {

TEST(JsonReaderLimitsTest, ADeeplyNestedReportIsOneLineNotACrash) {
  for (const std::string& text : {std::string(100000, '[') + std::string(100000, ']'),
                                  "{\"schema\": \"durprobe.report/1\", \"targets\": " +
                                      std::string(10000, '[') + std::string(10000, ']') + "}",
                                  std::string(200000, '{')}) {
    Result<Report> r = FromJson(text);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("nested deeper than 64 levels"), std::string::npos)
        << r.status().message();
    EXPECT_EQ(r.status().message().find('\n'), std::string::npos);
  }
}

TEST(JsonReaderLimitsTest, SixtyFourLevelsAreStillParsed) {
  std::string text = std::string(63, '[') + std::string(63, ']');
  Result<Report> r = FromJson("{\"x\": " + text + "}");
  ASSERT_FALSE(r.ok());  // not a report, but read as JSON
  EXPECT_EQ(r.status().message().find("nested deeper"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace durprobe::report
