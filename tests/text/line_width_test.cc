// Fitting console text to a terminal (issue 22, point 3): the width a stream carries, lines
// wrapped with a hanging indent, and tables that leave columns out by rank and say so.
#include "text/line_width.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "text/table.h"

namespace durprobe::report {
namespace {

std::size_t Widest(const std::string& text) {
  std::size_t widest = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) widest = std::max(widest, DisplayWidth(line));
  return widest;
}

TEST(LineWidthTest, AStreamCarriesItsWidthAndDefaultsToUnlimited) {
  std::ostringstream a, b;
  EXPECT_EQ(LineWidth(a), 0u);
  SetLineWidth(a, 80);
  EXPECT_EQ(LineWidth(a), 80u);
  EXPECT_EQ(LineWidth(b), 0u);
}

TEST(LineWidthTest, LongLinesWrapWithAHangingIndentAndShortOnesStay) {
  std::string text =
      "short line\n  note: one two three four five six seven eight nine ten eleven twelve\n";
  EXPECT_EQ(FitLines(text, 0), text);
  EXPECT_EQ(FitLines(text, 30),
            "short line\n  note: one two three four\n        five six seven eight\n"
            "        nine ten eleven twelve\n");
  // A labelled line continues under its text; another under its indent plus two.
  EXPECT_EQ(FitLines("  path        one two three four five six seven\n", 40),
            "  path        one two three four five\n              six seven\n");
  EXPECT_EQ(FitLines("[warn] code: one two three four five six\n", 20),
            "[warn] code: one two\n  three four five\n  six\n");
}

TEST(LineWidthTest, AWordWiderThanTheLineIsCutAndUtf8CountsOnce) {
  std::string fitted = FitLines(std::string(50, 'x') + " µs µs", 20);
  EXPECT_LE(Widest(fitted), 20u) << fitted;
  EXPECT_EQ(fitted.find(std::string(21, 'x')), std::string::npos);
  EXPECT_EQ(WrapText("ab µs", 5, 0, 0), "ab µs");  // five code points fit in five columns
}

Table Wide() {
  Table t({{"name", Align::kLeft},
           {"rare", Align::kRight, 3},
           {"often", Align::kRight, 1},
           {"key"},
           {"text", Align::kLeft, 0, /*wraps=*/true}});
  t.AddRow({"fdatasync", "1234567", "7654321", "42",
            "a long explanation that would make the table far wider than a small terminal"});
  return t;
}

TEST(LineWidthTest, ATableLeavesColumnsOutByRankAndSaysWhich) {
  std::ostringstream full, narrow;
  Wide().Print(full);
  EXPECT_EQ(full.str().find("left out"), std::string::npos);
  EXPECT_GT(Widest(full.str()), 60u);
  SetLineWidth(narrow, 48);
  Wide().Print(narrow);
  const std::string& text = narrow.str();
  EXPECT_LE(Widest(text), 48u) << text;
  EXPECT_NE(text.find("(left out to fit 48 columns: rare;"), std::string::npos) << text;
  EXPECT_NE(text.find("often"), std::string::npos);
  EXPECT_NE(text.find("key"), std::string::npos);
  // The wrapping column continues under itself: its text is all there, on several lines.
  std::size_t column = text.find("a long") - (text.rfind('\n', text.find("a long")) + 1);
  EXPECT_NE(text.find("\n" + std::string(column, ' ') + "terminal"), std::string::npos) << text;
}

TEST(LineWidthTest, LiveRowsLeaveOutTheSameColumnsAsTheHeader) {
  std::ostringstream out;
  SetLineWidth(out, 30);
  Table t({{"a", Align::kLeft}, {"b", Align::kRight, 2}, {"c", Align::kRight, 1}});
  t.SetMinWidths({12, 12, 12});
  t.PrintHeader(out);
  t.AddRow({"x", "yyy", "zzz"});
  t.PrintLastRow(out);
  std::string tail = "a" + std::string(24, ' ') + "c\nx" + std::string(22, ' ') + "zzz\n";
  const std::string& text = out.str();
  ASSERT_GE(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail) << text;
  EXPECT_NE(text.find("(left out to fit 30"), std::string::npos) << text;
  EXPECT_LE(Widest(text), 30u) << text;
}

}  // namespace
}  // namespace durprobe::report
