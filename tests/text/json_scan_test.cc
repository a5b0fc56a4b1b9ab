// The scan that measures JSON before it is parsed: nesting depth and where the keys are.
#include "text/json_scan.h"

#include <gtest/gtest.h>

#include <string>

namespace durprobe::text {
namespace {

TEST(JsonScanTest, TooDeepAtNamesTheFirstBracketPastTheLimit) {
  EXPECT_EQ(JsonTooDeepAt("{\"a\": [1, {\"b\": 2}]}", 3), std::string_view::npos);
  EXPECT_EQ(JsonTooDeepAt("{\"a\": [1, {\"b\": 2}]}", 2), 10u);
  EXPECT_EQ(JsonTooDeepAt("[[]][[]]", 2), std::string_view::npos);
  std::string deep = std::string(10000, '[') + std::string(10000, ']');
  EXPECT_EQ(JsonTooDeepAt(deep, 64), 64u);
  // Brackets in strings, escaped quotes included, do not count.
  EXPECT_EQ(JsonTooDeepAt(R"({"a": "[[[\"[[[", "b": "}}}"})", 1), std::string_view::npos);
  // Unterminated text is not an error here: the parser says so.
  EXPECT_EQ(JsonTooDeepAt("{\"a", 1), std::string_view::npos);
}

TEST(JsonScanTest, KeyOffsetsAreTheStringsBeforeAColon) {
  std::string text = "{\"a\": \"b\", \"c\" : [\"d\", {\"e\":1}], \"f\\\"g\": 2}";
  std::vector<std::size_t> keys = JsonKeyOffsets(text);
  ASSERT_EQ(keys.size(), 4u);
  EXPECT_EQ(text.substr(keys[0], 3), "\"a\"");
  EXPECT_EQ(text.substr(keys[1], 3), "\"c\"");
  EXPECT_EQ(text.substr(keys[2], 3), "\"e\"");
  EXPECT_EQ(text.substr(keys[3], 3), "\"f\\");
}

TEST(JsonScanTest, LineCounterCountsForward) {
  std::string text = "a\nb\n\nc";
  LineCounter lines(text);
  EXPECT_EQ(lines.LineAt(0), 1);
  EXPECT_EQ(lines.LineAt(2), 2);
  EXPECT_EQ(lines.LineAt(5), 4);
  EXPECT_EQ(lines.LineAt(100), 4);
}

}  // namespace
}  // namespace durprobe::text
