// A closed set's table is held to its enum: a row missing or out of place is refused at compile
// time, and a value past the table reads as "".
#include "platform/enum_table.h"

#include <gtest/gtest.h>

namespace durprobe::platform {
namespace {

enum class Colour { kRed, kGreen, kBlue };

constexpr TextRow<Colour> kColourNames[] = {
    {Colour::kRed, "red"}, {Colour::kGreen, "green"}, {Colour::kBlue, "blue"}};
constexpr TextRow<Colour> kColourMissingRow[] = {{Colour::kRed, "red"}, {Colour::kGreen, "green"}};
constexpr TextRow<Colour> kColourSwapped[] = {
    {Colour::kRed, "red"}, {Colour::kBlue, "blue"}, {Colour::kGreen, "green"}};

static_assert(OneRowPerValue(kColourNames, Colour::kBlue));
static_assert(!OneRowPerValue(kColourMissingRow, Colour::kBlue));
static_assert(!OneRowPerValue(kColourSwapped, Colour::kBlue));
// A row past the last enumerator is refused too.
static_assert(!OneRowPerValue(kColourNames, Colour::kGreen));

TEST(EnumTableTest, TextInReadsTheRowAndNothingPastTheTable) {
  EXPECT_EQ(TextIn(kColourNames, Colour::kRed), "red");
  EXPECT_EQ(TextIn(kColourNames, Colour::kBlue), "blue");
  EXPECT_EQ(TextIn(kColourNames, static_cast<Colour>(3)), "");
  EXPECT_EQ(RowIn(kColourNames, static_cast<Colour>(3)), nullptr);
  EXPECT_EQ(RowIn(kColourNames, Colour::kGreen), &kColourNames[1]);
}

}  // namespace
}  // namespace durprobe::platform
