// Fitting console text to a terminal (issue 22, point 3): the width a stream carries, lines
// wrapped with a hanging indent, and tables that leave columns out by rank and say so.
#include "text/line_width.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "text/table.h"

namespace durprobe::text {
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

// Issue 35 item 2: `durprobe help CMD` on a terminal; a description continues under itself.
TEST(LineWidthTest, HelpLinesContinueUnderTheirDescription) {
  const std::string help =
      "Options:\n"
      "  --budget DURATION           Total time for the whole run, split between the phases, "
      "for each path\n"
      "  --a-very-long-option-name-that-fills-the-label TEXT  Described far to the right of it\n"
      "                              a description's own second line that runs past the width\n";
  std::string fitted = FitLabelled(help, 60);
  EXPECT_LE(Widest(fitted), 60u) << fitted;
  EXPECT_NE(fitted.find("  --budget DURATION           Total time for the whole run,\n"
                        "                              split between the phases, for\n"
                        "                              each path\n"),
            std::string::npos)
      << fitted;
  EXPECT_NE(fitted.find("\n    Described far to the right of it\n"), std::string::npos) << fitted;
  EXPECT_NE(fitted.find("\n                              line that runs past the width\n"),
            std::string::npos)
      << fitted;
  EXPECT_EQ(FitLabelled(help, 0), help);
}

// Piped output keeps lines whole unless the CLI set a long-line width on the stream.
TEST(LineWidthTest, AStreamCarriesItsLongLineWrapApartFromItsWidth) {
  std::ostringstream piped, wide;
  SetLongLineWrap(piped, kPipedLine);
  EXPECT_EQ(LongLineWrap(piped), 100u);
  EXPECT_EQ(LineWidth(piped), 0u);
  EXPECT_EQ(LongLineWrap(wide), 0u);
}

}  // namespace
}  // namespace durprobe::text
