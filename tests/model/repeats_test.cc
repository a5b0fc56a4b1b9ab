// The statistics of a figure over repeats (model/repeats.h): median of N (odd and even), the
// extremes, which repeats count for a p99, and the row's figures made the medians.
#include "model/repeats.h"

#include <gtest/gtest.h>

namespace durprobe::report {
namespace {

probes::ProbeResult Repeat(std::uint64_t ops, std::uint64_t p50, std::uint64_t p99, double rate) {
  probes::ProbeResult r;
  r.ops = ops;
  r.latency.count = ops;
  r.latency.p50 = p50;
  r.latency.p99 = p99;
  r.ops_per_sec = rate;
  return r;
}

TEST(RepeatsTest, SpreadOfAnOddCountIsItsMiddleValue) {
  RepeatSpread s = SpreadOf({4.0, 1.0, 9.0});
  EXPECT_EQ(s, (RepeatSpread{4.0, 1.0, 9.0, 3}));
  EXPECT_TRUE(Ranged(s));
}

TEST(RepeatsTest, SpreadOfAnEvenCountIsTheMeanOfTheMiddleTwo) {
  EXPECT_EQ(SpreadOf({10.0, 2.0, 4.0, 8.0}), (RepeatSpread{6.0, 2.0, 10.0, 4}));
}

TEST(RepeatsTest, OneOrNoValueHasNoRange) {
  EXPECT_EQ(SpreadOf({5.0}), (RepeatSpread{5.0, 5.0, 5.0, 1}));
  EXPECT_FALSE(Ranged(SpreadOf({5.0})));
  EXPECT_EQ(SpreadOf({}), RepeatSpread{});
}

TEST(RepeatsTest, AProbesP99CountsOnlyWhereItsRepeatSupportsOne) {
  std::vector<probes::ProbeResult> repeats = {
      Repeat(500, 100, 900, 9000.0), Repeat(50, 400, 4000, 2000.0),  // no p99
      Repeat(300, 150, 1500, 6000.0), Repeat(0, 0, 0, 0.0)};         // timed nothing
  ProbeRepeats r = ProbeRepeatsOf(2, repeats);
  EXPECT_EQ(r.probe, 2u);
  EXPECT_EQ(r.p50_ns, (RepeatSpread{150.0, 100.0, 400.0, 3}));
  EXPECT_EQ(r.p99_ns, (RepeatSpread{1200.0, 900.0, 1500.0, 2}));
  EXPECT_EQ(r.ops_per_sec, (RepeatSpread{6000.0, 2000.0, 9000.0, 3}));
  std::vector<ProbeRepeats> all = {r};
  EXPECT_EQ(FindRepeats(all, 2), &all[0]);
  EXPECT_EQ(FindRepeats(all, 0), nullptr);
}

TEST(RepeatsTest, TheRowShowsTheMedians) {
  probes::ProbeResult row = Repeat(850, 120, 1000, 7000.0);
  ProbeRepeats r{
      .p50_ns = {150.4, 100, 400, 3}, .p99_ns = {}, .ops_per_sec = {6000, 2000, 9000, 3}};
  UseMedians(row, r);
  EXPECT_EQ(row.latency.p50, 150u);
  EXPECT_EQ(row.latency.p99, 1000u);  // no repeat's p99: the pooled one stays
  EXPECT_EQ(row.ops_per_sec, 6000.0);
  EXPECT_EQ(row.ops, 850u);
}

TEST(RepeatsTest, AConfigurationsRowShowsItsMedianRateAndItsRows) {
  probes::LatencySummary a{.count = 200, .p50 = 3'000'000, .p99 = 9'000'000};
  probes::LatencySummary b{.count = 200, .p50 = 2'000'000, .p99 = 5'000'000};
  probes::LatencySummary c{.count = 20, .p50 = 4'000'000, .p99 = 4'000'000};
  SqliteRepeats r = SqliteRepeatsOf({300.0, 500.0, 250.0}, {a, b, c});
  EXPECT_EQ(r.commits_per_sec, (RepeatSpread{300.0, 250.0, 500.0, 3}));
  EXPECT_EQ(r.p50_ns, (RepeatSpread{3e6, 2e6, 4e6, 3}));
  EXPECT_EQ(r.p99_ns, (RepeatSpread{7e6, 5e6, 9e6, 2}));
  sqlite_bench::CommitResult row;
  row.config.rows_per_commit = 10;
  UseMedians(row, r);
  EXPECT_EQ(row.commits_per_sec, 300.0);
  EXPECT_EQ(row.rows_per_sec, 3000.0);
  EXPECT_EQ(row.latency.p50, 3'000'000u);
  EXPECT_EQ(row.latency.p99, 7'000'000u);
}

}  // namespace
}  // namespace durprobe::report
