#include "text/units.h"

#include <gtest/gtest.h>

#include <limits>

namespace durprobe::text {
namespace {

TEST(UnitsTest, ParsesSizes) {
  EXPECT_EQ(*ParseSize("512"), 512u);
  EXPECT_EQ(*ParseSize("2300"), 2300u);
  EXPECT_EQ(*ParseSize("2300b"), 2300u);
  EXPECT_EQ(*ParseSize("4k"), 4096u);
  EXPECT_EQ(*ParseSize("4K"), 4096u);
  EXPECT_EQ(*ParseSize("64KiB"), 65536u);
  EXPECT_EQ(*ParseSize("1MiB"), 1048576u);
  EXPECT_EQ(*ParseSize("1m"), 1048576u);
  EXPECT_EQ(*ParseSize("1.5k"), 1536u);
  EXPECT_EQ(*ParseSize("8kB"), 8000u);
}

TEST(UnitsTest, RejectsBadSizesWithTheTextInTheMessage) {
  for (const char* bad : {"", "k", "abc", "4x", "-4k", "0", "0.5", "1.2b", "4 kilobytes"}) {
    Result<std::uint64_t> r = ParseSize(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().kind(), Status::Kind::kInvalidArgument);
    EXPECT_NE(r.status().message().find(std::string("'") + bad + "'"), std::string::npos)
        << r.status().message();
  }
}

TEST(UnitsTest, ParsesDurations) {
  EXPECT_EQ(*ParseDurationNanos("500ms"), 500'000'000u);
  EXPECT_EQ(*ParseDurationNanos("10s"), 10'000'000'000u);
  EXPECT_EQ(*ParseDurationNanos("1.5s"), 1'500'000'000u);
  EXPECT_EQ(*ParseDurationNanos("2m"), 120'000'000'000u);
  EXPECT_EQ(*ParseDurationNanos("250us"), 250'000u);
  EXPECT_EQ(*ParseDurationNanos("100ns"), 100u);
  EXPECT_EQ(*ParseDurationNanos("1h"), 3'600'000'000'000u);
}

TEST(UnitsTest, RejectsBadDurations) {
  for (const char* bad : {"", "fast", "10 parsecs", "0s", "-1s", "5d", "10", "99999h", "-", "."}) {
    EXPECT_FALSE(ParseDurationNanos(bad).ok()) << bad;
  }
}

// Each way a value can be wrong gets its own message, so the user knows what to change.
TEST(UnitsTest, EachBadDurationSaysWhatIsWrong) {
  auto message = [](const char* text) { return ParseDurationNanos(text).status().message(); };
  EXPECT_EQ(message("99999h"),
            "invalid duration '99999h': too long (at most 1000000s, about 11 days)");
  EXPECT_EQ(message("0s"), "invalid duration '0s': must be above zero");
  EXPECT_EQ(message("-1s"), "invalid duration '-1s': must not be negative");
  EXPECT_EQ(message("30"), "invalid duration '30': give a unit (30s, 30ms, 30m)");
  // "0s" would be refused in turn: a zero is asked for a duration that is accepted.
  EXPECT_EQ(message("0"),
            "invalid duration '0': give one above zero, with a unit (500ms, 10s, 2m)");
  EXPECT_EQ(message("5d"),
            "invalid duration '5d': expected a number with a unit (500ms, 10s, 2m, 250us)");
  EXPECT_EQ(*ParseDurationNanos("1000000s"), 1'000'000'000'000'000u);  // the largest accepted
}

TEST(UnitsTest, EachBadSizeSaysWhatIsWrong) {
  auto message = [](const char* text) { return ParseSize(text).status().message(); };
  EXPECT_EQ(message("0"), "invalid size '0': must be at least 1 byte");
  EXPECT_EQ(message("-4k"), "invalid size '-4k': must not be negative");
  EXPECT_EQ(message("2000000g"), "invalid size '2000000g': too large (at most 1 PB, 10^15 bytes)");
  EXPECT_EQ(message("1.5"), "invalid size '1.5': must be a whole number of bytes");
  EXPECT_EQ(message("4 parsecs"),
            "invalid size '4 parsecs': expected a number with an optional unit (512, 2300, 4k, "
            "64KiB, 1MiB)");
}

TEST(UnitsTest, FormatsForHumans) {
  EXPECT_EQ(FormatNanos(812), "812 ns");
  EXPECT_EQ(FormatNanos(1234), "1.23 us");
  EXPECT_EQ(FormatNanos(61600), "61.6 us");
  EXPECT_EQ(FormatNanos(4010000), "4.01 ms");
  EXPECT_EQ(FormatNanos(2e9), "2.00 s");
  EXPECT_EQ(FormatBytes(2300), "2300 B");
  EXPECT_EQ(FormatBytes(4096), "4 KiB");
  EXPECT_EQ(FormatBytes(1 << 20), "1 MiB");
  EXPECT_EQ(FormatRate(1234567.4), "1,234,567");
  EXPECT_EQ(FormatRate(12.34), "12.3");
}

TEST(UnitsTest, RatiosReadAtAGlance) {
  EXPECT_EQ(FormatRatio(0.00072), "1/1400x");
  EXPECT_EQ(FormatRatio(0.05), "1/20x");
  EXPECT_EQ(FormatRatio(0.0999), "1/10x");
  EXPECT_EQ(FormatRatio(0.45), "1/2.22x");
  EXPECT_EQ(FormatRatio(0.19), "1/5.26x");
  EXPECT_EQ(FormatRatio(0.996), "1.00x");
  EXPECT_EQ(FormatRatio(1.0), "1.00x");
  EXPECT_EQ(FormatRatio(8.7), "8.70x");
  EXPECT_EQ(FormatRatio(12.34), "12.3x");
  EXPECT_EQ(FormatRatio(1389.2), "1389x");
  EXPECT_EQ(FormatRatio(0.0), "-");
  EXPECT_EQ(FormatRatio(-1.0), "-");
  EXPECT_EQ(FormatRatio(std::numeric_limits<double>::infinity()), "-");
}

TEST(UnitsTest, TimeCellsCarryTheirUnit) {
  EXPECT_EQ(NanosCell(19'500'000), "19.5 ms");
  EXPECT_EQ(PercentileCell(std::nullopt), "-");
  EXPECT_EQ(PercentileCell(121'340), "121 us");
}

}  // namespace
}  // namespace durprobe::text

namespace durprobe::text {
namespace {

// Found by the fuzzer (tests/fixtures/fuzz/units/crash-duration-rounds-to-zero): ".1ns" parsed
// as a duration of 0 ns.
TEST(UnitsTest, DurationsUnderHalfANanosecondAreRejected) {
  for (const char* tiny : {".1ns", "0.4ns", "0.0000000001s"}) {
    Result<std::uint64_t> r = ParseDurationNanos(tiny);
    ASSERT_FALSE(r.ok()) << tiny << " gave " << *r;
    EXPECT_NE(r.status().message().find(std::string("'") + tiny + "'"), std::string::npos)
        << r.status().message();
  }
  EXPECT_EQ(*ParseDurationNanos("0.5ns"), 1u);
}

}  // namespace
}  // namespace durprobe::text
