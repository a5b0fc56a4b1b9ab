// A saved report nested deeper than any report is refused with one line before nlohmann's tree
// is built and walked (each walk recurses).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "codec/json_reader.h"
#include "tests/cli_runner.h"

namespace durprobe::codec {
namespace {

TEST(JsonReaderLimitsTest, ADeeplyNestedReportIsOneLineNotACrash) {
  for (const std::string& text : {std::string(100000, '[') + std::string(100000, ']'),
                                  "{\"schema\": \"durprobe.report/1\", \"targets\": " +
                                      std::string(10000, '[') + std::string(10000, ']') + "}",
                                  std::string(200000, '{')}) {
    Result<model::Report> r = FromJson(text);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("nested deeper than 64 levels"), std::string::npos)
        << r.status().message();
    EXPECT_EQ(r.status().message().find('\n'), std::string::npos);
  }
}

TEST(JsonReaderLimitsTest, SixtyFourLevelsAreStillParsed) {
  std::string text = std::string(63, '[') + std::string(63, ']');
  Result<model::Report> r = FromJson("{\"x\": " + text + "}");
  ASSERT_FALSE(r.ok());  // not a report, but read as JSON
  EXPECT_EQ(r.status().message().find("nested deeper"), std::string::npos) << r.status().message();
}

// Issue 32, item 14: a key given twice was read silently, the last one winning (a forged
// commits_per_sec 999999 after the measured 1). It is refused, naming the key and where it is.
TEST(JsonReaderLimitsTest, AKeyGivenTwiceIsRefusedWithItsPlace) {
  std::string text = testing_support::Slurp(std::string(DURPROBE_SOURCE_DIR) +
                                            "/tests/fixtures/golden/reports/run.json");
  ASSERT_TRUE(FromJson(text).ok());
  std::size_t rate = text.find("\"commits_per_sec\":");
  ASSERT_NE(rate, std::string::npos);
  std::string forged = text;
  forged.insert(rate, "\"commits_per_sec\": 999999, ");
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + rate, '\n'));
  Result<model::Report> r = FromJson(forged);
  ASSERT_FALSE(r.ok()) << "a key twice was read";
  std::string m = r.status().message();
  EXPECT_NE(m.find("key 'commits_per_sec' appears twice in targets[0].sqlite[0]"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("(line " + std::to_string(line) + ")"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
  Result<model::Report> top =
      FromJson(std::string(R"({"schema": "durprobe.report/1", "schema": "x", "targets": []})"));
  ASSERT_FALSE(top.ok());
  EXPECT_NE(top.status().message().find("key 'schema' appears twice in the top-level object "
                                        "(line 1)"),
            std::string::npos)
      << top.status().message();
  // The same key in two objects is no repetition.
  EXPECT_TRUE(ParseJsonText(R"({"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 1}, {"k": 2}]})").ok());
}

}  // namespace
}  // namespace durprobe::codec
