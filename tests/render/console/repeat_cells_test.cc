// The console with --repeat: the median with the next run's interval in place of the confidence
// interval ("152 us (131-180 us)"), or the least and greatest repeat's where the repeats differ
// twofold ("2.10 ms [140 us-4.10 ms]"), in the probe and the SQLite tables, and the note that
// says what the brackets are; a table without repeats keeps its CI header.
#include "render/console/repeat_cells.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "analysis/sqlite_correlation.h"
#include "render/console/console_reporter.h"
#include "render/console/sqlite_console.h"
#include "tests/report_samples.h"
#include "tests/sqlite_samples.h"

namespace durprobe::render::console {
namespace {

TEST(RepeatCellsTest, TheUnitIsSaidOnceWhereBothEndsShareIt) {
  EXPECT_EQ(NanosRangeCell({152'000, 140'000, 171'000, 3, 131'000, 180'000}),
            "152 us (131-180 us)");
  EXPECT_EQ(NanosRangeCell({900'000, 700'000, 990'000, 3, 600'000, 1.2e6}),
            "900 us (600 us-1.20 ms)");
  EXPECT_EQ(RateRangeCell({3720, 3410, 3980, 3, 3310, 4100}), "3,720 (3,310-4,100)");
}

TEST(RepeatCellsTest, RepeatsTwofoldApartShowTheirExtremesInSquareBrackets) {
  EXPECT_EQ(NanosRangeCell(model::SpreadOf({2.1e6, 140'000, 4.1e6})), "2.10 ms [140 us-4.10 ms]");
  EXPECT_EQ(RateRangeCell(model::SpreadOf({3720, 1410, 3980})), "3,720 [1,410-3,980]");
}

TEST(RepeatCellsTest, CloseRepeatsShowTheNextRunsInterval) {
  const model::RepeatSpread s =
      model::SpreadOf({118'016, 118'016, 118'528}, model::kLatencyResolution);
  const std::string cell = NanosRangeCell(s);
  EXPECT_EQ(cell, fmt::format("118 us ({}-{} us)", std::lround(s.next_low / 1e3),
                              std::lround(s.next_high / 1e3)));
  EXPECT_LT(s.next_low, s.min);
  EXPECT_GT(s.next_high, s.max);
}

TEST(RepeatCellsTest, TheProbeTableShowsTheRangeInsteadOfTheInterval) {
  model::Target t;
  t.probes = {testing_support::SampleProbe()};
  t.probe_repeats = {{.probe = 0,
                      .p50_ns = {400'000, 380'000, 450'000, 3, 350'000, 470'000},
                      .p99_ns = {900'000, 700'000, 1'200'000, 3, 600'000, 1'300'000},
                      .ops_per_sec = {2468, 2100, 2600, 3}}};
  std::ostringstream out;
  PrintProbeTable(t.probes, out, &t);
  const std::string text = out.str();
  EXPECT_NE(text.find("p50 (range)"), std::string::npos) << text;
  EXPECT_EQ(text.find("95% CI"), std::string::npos) << text;
  EXPECT_NE(text.find("400 us (350-470 us)"), std::string::npos) << text;
  EXPECT_NE(text.find("900 us (600 us-1.30 ms)"), std::string::npos) << text;
  EXPECT_EQ(text.find("±"), std::string::npos) << text;
  EXPECT_NE(text.find("note: " + RepeatsNote()), std::string::npos) << text;
}

TEST(RepeatCellsTest, ASingleRepeatKeepsTheInterval) {
  model::Target t;
  t.probes = {testing_support::SampleProbe()};
  std::ostringstream out;
  PrintProbeTable(t.probes, out, &t);
  EXPECT_NE(out.str().find("p50 (95% CI)"), std::string::npos);
  EXPECT_NE(out.str().find("400 us ±1%"), std::string::npos);
  EXPECT_EQ(out.str().find("--repeat"), std::string::npos);
}

TEST(RepeatCellsTest, TheSqliteTableShowsTheRateAndLatencyRanges) {
  model::Target t;
  t.probes = testing_support::Probes();
  sqlite_bench::CommitResult r = testing_support::DeleteFull();
  analysis::AddSqliteResults(t, {r});
  t.sqlite[0].repeats = model::SqliteRepeats{.commits_per_sec = {1400, 1300, 1500, 3, 1100, 1700},
                                             .p50_ns = {700'000, 650'000, 1'400'000, 3},
                                             .p99_ns = {}};
  std::ostringstream out;
  PrintSqliteTable(t.sqlite, {}, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("1,400 (1,100-1,700)"), std::string::npos) << text;
  EXPECT_NE(text.find("700 us [650 us-1.40 ms]"), std::string::npos) << text;
  EXPECT_NE(text.find("note: " + RepeatsNote()), std::string::npos) << text;
}

}  // namespace
}  // namespace durprobe::render::console
