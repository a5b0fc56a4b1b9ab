// Timing rules judged against the drift seen during the run: a limit inside the range the value
// could have had is `unstable` with that range, never a pass or a fail by luck; a limit outside
// it keeps the pass or the fail; a steady device changes nothing; a two-state device measured in
// its slow state is judged as measured.
#include "gate/drift_range.h"

#include <gtest/gtest.h>

#include "gate/rules.h"

namespace durprobe::gate {
namespace {

using probes::Pattern;
using probes::Primitive;

constexpr std::uint64_t kRangeSec = 1'000'000'000;
constexpr probes::ProbeSpec kRangeSpec{Primitive::kFdatasync, Pattern::kOverwrite, 4096};

// A probe whose sync p99 is p99_ns, measured from 1 s to 2 s, and a WAL/FULL configuration at
// 3-4 s, with the reference probe at `during` around both and reaching `later` at the end.
model::Report MeasuredAt(std::uint64_t p99_ns, double during, double later) {
  probes::ProbeResult r;
  r.spec = kRangeSpec;
  r.ops = 1000;
  r.ops_per_sec = 1000;
  r.has_sync_part = true;
  r.sync_latency = {.count = 1000, .p50 = p99_ns / 2, .p95 = p99_ns, .p99 = p99_ns, .max = p99_ns};
  r.latency = r.sync_latency;
  r.series = {{1 * kRangeSec, 500, p99_ns / 2, double(p99_ns / 2)},
              {2 * kRangeSec, 500, p99_ns / 2, double(p99_ns / 2)}};
  model::Target t;
  t.path = "/data";
  t.probes = {r};
  sqlite_bench::CommitResult c;
  c.config.journal = sqlite_bench::JournalMode::kWal;
  c.commits = 1000;
  c.commits_per_sec = 600;
  c.repetitions = 5;
  c.repetition_windows = {{.start_ns = 3 * kRangeSec, .end_ns = 4 * kRangeSec, .commits = 1000}};
  t.sqlite.push_back({});
  t.sqlite.back().result = c;
  t.reference = {{kRangeSec / 2, "fdatasync overwrite 4 KiB", 40, 0, during},
                 {5 * kRangeSec / 2, "WAL/FULL", 40, 0, during},
                 {9 * kRangeSec / 2, "WAL/NORMAL", 40, 0, during},
                 {6 * kRangeSec, "end", 40, 0, later}};
  model::Report report;
  report.targets.push_back(t);
  return report;
}

Policy P99Below(std::uint64_t max_ns) {
  Policy p;
  p.latency = {{.name = "p99", .spec = kRangeSpec, .stat = LatencyStat::kP99, .max_ns = max_ns}};
  return p;
}

TEST(DriftRangeTest, ALimitInsideTheDriftRangeIsUnstableWithThatRange) {
  // p99 6 ms measured at 350 us; the device reached 700 us: 6 to 12 ms, across a 10 ms limit.
  std::vector<model::CheckResult> c =
      EvaluatePolicy(P99Below(10'000'000), MeasuredAt(6'000'000, 350'000, 700'000));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].outcome, model::CheckOutcome::kUnstable);
  ASSERT_TRUE(c[0].drift_low && c[0].drift_high);
  EXPECT_DOUBLE_EQ(*c[0].drift_low, 0.006);
  EXPECT_DOUBLE_EQ(*c[0].drift_high, 0.012);
  EXPECT_EQ(c[0].message.rfind("unstable: ", 0), 0u) << c[0].message;
  EXPECT_NE(c[0].message.find("from 6.00 ms to 12.0 ms"), std::string::npos) << c[0].message;
  EXPECT_EQ(NameOf(c[0].outcome), "unstable");
}

TEST(DriftRangeTest, ALimitOutsideTheRangeKeepsThePassOrTheFail) {
  EXPECT_EQ(
      EvaluatePolicy(P99Below(20'000'000), MeasuredAt(6'000'000, 350'000, 700'000))[0].outcome,
      model::CheckOutcome::kPass);
  EXPECT_EQ(EvaluatePolicy(P99Below(5'000'000), MeasuredAt(6'000'000, 350'000, 700'000))[0].outcome,
            model::CheckOutcome::kFail);
  // A steady device: the same 10 ms limit passes.
  std::vector<model::CheckResult> steady =
      EvaluatePolicy(P99Below(10'000'000), MeasuredAt(6'000'000, 350'000, 360'000));
  EXPECT_EQ(steady[0].outcome, model::CheckOutcome::kPass);
  EXPECT_FALSE(steady[0].drift_low.has_value());
}

TEST(DriftRangeTest, RatesScaleInverselyWithTheLevel) {
  // 600 commits/s measured at 350 us; at 700 us it could have been 300/s: a 500/s floor flips.
  Policy p;
  p.commits = {{.name = "commits_WAL_FULL", .min_commits_per_sec = 500}};
  std::vector<model::CheckResult> c = EvaluatePolicy(p, MeasuredAt(6'000'000, 350'000, 700'000));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].outcome, model::CheckOutcome::kUnstable);
  EXPECT_DOUBLE_EQ(*c[0].drift_low, 300);
  EXPECT_DOUBLE_EQ(*c[0].drift_high, 600);
  p.commits[0].min_commits_per_sec = 200;  // under even the slowest level
  EXPECT_EQ(EvaluatePolicy(p, MeasuredAt(6'000'000, 350'000, 700'000))[0].outcome,
            model::CheckOutcome::kPass);
}

TEST(DriftRangeTest, ATwoStateDeviceMeasuredInItsSlowStateIsJudgedAsMeasured) {
  // Flushes at 4 ms while the probe and the configuration ran, 120 us at the end (33x apart):
  // measured in the slow state, the one a gate plans for, so the fail stands with that said.
  std::vector<model::CheckResult> slow =
      EvaluatePolicy(P99Below(5'000'000), MeasuredAt(6'000'000, 4'000'000, 120'000));
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0].outcome, model::CheckOutcome::kFail) << slow[0].message;
  EXPECT_FALSE(slow[0].drift_low.has_value());
  EXPECT_NE(slow[0].message.find("measured in the device's slow state"), std::string::npos)
      << slow[0].message;
  Policy p;
  p.commits = {{.name = "commits_WAL_FULL", .min_commits_per_sec = 1000}};
  EXPECT_EQ(EvaluatePolicy(p, MeasuredAt(6'000'000, 4'000'000, 120'000))[0].outcome,
            model::CheckOutcome::kFail);
  // The same device measured in its fast state could have read either side: unstable.
  EXPECT_EQ(EvaluatePolicy(P99Below(5'000'000), MeasuredAt(300'000, 120'000, 4'000'000))[0].outcome,
            model::CheckOutcome::kUnstable);
}

TEST(DriftRangeTest, TheSlowStateNeedsTwoLevelsFourTimesApart) {
  EXPECT_TRUE(InSlowState({.low_ns = 100'000, .high_ns = 400'000}, 200'000));
  EXPECT_FALSE(InSlowState({.low_ns = 100'000, .high_ns = 400'000}, 199'000));
  EXPECT_FALSE(InSlowState({.low_ns = 100'000, .high_ns = 390'000}, 390'000));  // one state
  EXPECT_FALSE(InSlowState({.low_ns = 0, .high_ns = 390'000}, 390'000));
}

TEST(DriftRangeTest, AnErrorStaysAnError) {
  model::CheckResult c;
  c.outcome = model::CheckOutcome::kError;
  c.threshold = 0.01;
  c.measured = 0.006;
  model::Report r = MeasuredAt(6'000'000, 350'000, 700'000);
  JudgeWithinDrift(c, r.targets[0], 350'000, Scaling::kWithLatency);
  EXPECT_EQ(c.outcome, model::CheckOutcome::kError);
}

}  // namespace
}  // namespace durprobe::gate
