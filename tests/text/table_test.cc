// The table writer: widths come from the cells, so columns stay aligned whatever the values.
#include "text/table.h"

#include <gtest/gtest.h>

#include <sstream>

namespace durprobe::text {
namespace {

std::string Print(const Table& t) {
  std::ostringstream out;
  t.Print(out);
  return out.str();
}

TEST(TableTest, ColumnsAreAsWideAsTheirWidestCell) {
  Table t({{"name", Align::kLeft}, {"time"}});
  t.AddRow({"a", "19.5 ms"});
  t.AddRow({"a much longer name", "812 ns"});
  EXPECT_EQ(Print(t),
            "name                   time\n"
            "a                   19.5 ms\n"
            "a much longer name   812 ns\n");
}

TEST(TableTest, AHeaderWiderThanItsCellsSetsTheWidth) {
  Table t({{"x", Align::kLeft}, {"a long header"}}, 2, 1);
  t.AddRow({"1", "2"});
  EXPECT_EQ(Print(t),
            "  x a long header\n"
            "  1             2\n");
}

TEST(TableTest, SpanRowsAlignTheirLeadingCellsAndSetNoWidth) {
  Table t({{"primitive", Align::kLeft}, {"size"}, {"p50"}});
  t.AddRow({"fdatasync", "4 KiB", "400 us"});
  t.AddSpanRow({"full_fsync", "4 KiB"}, "unsupported: F_FULLFSYNC is macOS only");
  EXPECT_EQ(Print(t),
            "primitive    size     p50\n"
            "fdatasync   4 KiB  400 us\n"
            "full_fsync  4 KiB  unsupported: F_FULLFSYNC is macOS only\n");
}

TEST(TableTest, WidthCountsCharactersNotBytesAndLinesHaveNoTrailingSpaces) {
  EXPECT_EQ(DisplayWidth("400 us ±1%"), 10u);
  Table t({{"p50", Align::kRight}, {"note", Align::kLeft}});
  t.AddRow({"400 us ±1%", ""});
  t.AddRow({"1 ms", "slow"});
  EXPECT_EQ(Print(t),
            "       p50  note\n"
            "400 us ±1%\n"
            "      1 ms  slow\n");
}

TEST(TableTest, MissingTrailingCellsPrintEmpty) {
  Table t({{"a", Align::kLeft}, {"b"}, {"c"}});
  t.AddRow({"x"});
  EXPECT_EQ(Print(t), "a  b  c\nx\n");
}

// Issue 32 item 5: a cell is one line whatever its value holds; a path with a newline cannot
// forge a row of its own, nor an escape sequence reach the terminal.
TEST(TableTest, ACellsControlBytesAreShownNotSent) {
  Table t({{"host", Align::kLeft}, {"path", Align::kLeft}});
  t.AddRow({"a", "/x\nb  /forged"});
  t.AddSpanRow({"c\x1b[2J"}, "failed: \x07 bell");
  EXPECT_EQ(Print(t),
            "host      path\n"
            "a         /x\\nb  /forged\n"
            "c\\x1b[2J  failed: \\x07 bell\n");
}

TEST(TableTest, FirstColumnsNeverCutsACharacter) {
  EXPECT_EQ(FirstColumns("a\xc2\xb5"
                         "bc",
                         2),
            "a\xc2\xb5");
  EXPECT_EQ(FirstColumns("ab", 5), "ab");
  EXPECT_EQ(FirstColumns("\xe2\x82\xac\xe2\x82\xac", 1), "\xe2\x82\xac");
}

}  // namespace
}  // namespace durprobe::text
