// cli/validators.h on its own: what each validator accepts, how it rewrites the value, and the one
// wording of each error (the options add their name in front: "--ci: '200' is not in 0.1..100").
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "cli/validators.h"
#include "text/units.h"

namespace durprobe {
namespace {

// The validator's error for value ("" when accepted), and value as the validator left it.
std::string Check(const CLI::Validator& v, std::string& value) { return v(value); }

TEST(ValidatorsCliTest, SizeAcceptsUnitsAndKeepsParseSizeWording) {
  for (std::string value : {"4096", "4k", "1MiB"}) {
    std::string typed = value;
    EXPECT_EQ(Check(cli::Size(), value), "") << typed;
    EXPECT_EQ(value, typed) << "the value is kept as typed";
  }
  std::string bad = "4 parsecs";
  std::string error = Check(cli::Size(), bad);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error, text::ParseSize("4 parsecs").status().message());
  EXPECT_EQ(cli::Size().get_description(), "SIZE");
}

TEST(ValidatorsCliTest, DurationAcceptsUnitsAndKeepsParseDurationWording) {
  for (std::string value : {"500ms", "10s", "2m"}) {
    EXPECT_EQ(Check(cli::Duration(), value), "") << value;
  }
  std::string bad = "soon";
  std::string error = Check(cli::Duration(), bad);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error, text::ParseDurationNanos("soon").status().message());
  EXPECT_EQ(cli::Duration().get_description(), "DURATION");
}

TEST(ValidatorsCliTest, OneOfIsCaseInsensitiveAndListsTheValidNames) {
  CLI::Validator v = cli::OneOf({"full", "normal", "off"}, "synchronous");
  std::string value = "NoRmAl";
  EXPECT_EQ(Check(v, value), "");
  EXPECT_EQ(value, "normal") << "the value becomes the name as listed";
  std::string typo = "ful";
  EXPECT_EQ(Check(v, typo), "'ful' is not one of full, normal, off (the valid synchronous names)");
  EXPECT_EQ(typo, "ful");
  EXPECT_EQ(v.get_description(), "{full, normal, off}");
}

TEST(ValidatorsCliTest, KeysOfListsATablesNamesInItsOrder) {
  std::map<std::string, int> table{{"b", 2}, {"a", 1}, {"c", 3}};
  EXPECT_EQ(cli::KeysOf(table), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(cli::KeysOf(std::map<std::string, int>{}).empty());
}

TEST(ValidatorsCliTest, InRangeIncludesItsBoundsAndNamesTheRange) {
  CLI::Validator v = cli::InRange(1, 1000);
  for (std::string value : {"1", "1000", "12.5"}) EXPECT_EQ(Check(v, value), "") << value;
  std::string zero = "0";
  EXPECT_EQ(Check(v, zero), "'0' is not in 1..1000");
  std::string above = "1000.5";
  EXPECT_EQ(Check(v, above), "'1000.5' is not in 1..1000");
  EXPECT_EQ(v.get_description(), "in 1..1000");
}

TEST(ValidatorsCliTest, InRangeRejectsWhatIsNotWhollyANumber) {
  CLI::Validator v = cli::InRange(0.1, 100);
  for (std::string value : {"x", "", "5x", "5 "}) {
    std::string typed = value;
    EXPECT_EQ(Check(v, value), "'" + typed + "' is not a number (expected 0.1..100)") << typed;
  }
  std::string tiny = "0.05";
  EXPECT_EQ(Check(v, tiny), "'0.05' is not in 0.1..100");
  // std::stod reads these whole; none is in any range (NaN compares false with everything).
  for (std::string value : {"nan", "NaN", "inf", "-inf"}) {
    std::string typed = value;
    EXPECT_EQ(Check(v, value), "'" + typed + "' is not in 0.1..100") << typed;
  }
}

}  // namespace
}  // namespace durprobe
