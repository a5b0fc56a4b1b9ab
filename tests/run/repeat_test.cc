// --repeat through the executor (run/plan.h Plan::repeats): the probes and the SQLite matrix
// measured N times over, each row pooling every repeat's operations and showing the medians of
// the repeats' figures, with their spreads beside it; on a fake clock where the device slows
// down in the last repeat.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "run/executor.h"
#include "run/planned_time.h"
#include "run/repeated_samples.h"
#include "run/schedule.h"
#include "tests/run/fake_probe_plan.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::run {
namespace {

// One probe of 5 timed fdatasyncs after its setup's fsync.
constexpr int kProbeSyncs = 6;

class Phases : public model::RunListener {
 public:
  void Progress(const model::ProgressEvent& e) override { phases.push_back(e.phase); }
  std::vector<std::string> phases;
};

class RepeatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_.UseFakeClock();
    fake_.AddSyncLatency(2 * kMs);
    plan_ = FakeProbePlan({a_.path()});
    plan_.command = "probe";
  }

  platform::FaultPlatform fake_{platform::Default()};
  testing_support::TempDir a_, b_;
  Plan plan_;
  Phases listener_;
};

TEST_F(RepeatTest, EachRepeatProbesAgainAndTheRowShowsTheMedianOfTheRepeats) {
  plan_.repeats = 3;
  // The third repeat's syncs (after two repeats of a reference sample and the probe) take 8 ms
  // more: the device moved between runs.
  fake_.AddSyncLatencyAfter(8 * kMs, 2 * (kReferenceSyncs + kProbeSyncs));
  Execution ex = Execute(fake_, plan_, listener_);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const model::Target& t = ex.report.targets.at(0);
  ASSERT_EQ(t.probes.size(), 1u);
  const probes::ProbeResult& r = t.probes[0];
  EXPECT_EQ(r.outcome, probes::Outcome::kOk) << r.reason;
  EXPECT_EQ(r.ops, 15u);  // every repeat's operations pooled
  ASSERT_EQ(t.probe_repeats.size(), 1u);
  const model::ProbeRepeats& rep = t.probe_repeats[0];
  EXPECT_EQ(rep.probe, 0u);
  EXPECT_EQ(rep.p50_ns.n, 3u);
  EXPECT_EQ(rep.ops_per_sec.n, 3u);
  EXPECT_EQ(rep.p99_ns.n, 0u);  // 5 operations a repeat support no p99
  EXPECT_NEAR(rep.p50_ns.min, 2.0 * kMs, 0.1 * kMs);
  EXPECT_NEAR(rep.p50_ns.median, 2.0 * kMs, 0.1 * kMs);
  EXPECT_NEAR(rep.p50_ns.max, 10.0 * kMs, 0.5 * kMs);
  // The row shows the median of the repeats, not the pooled median.
  EXPECT_EQ(static_cast<double>(r.latency.p50), std::round(rep.p50_ns.median));
  EXPECT_DOUBLE_EQ(r.ops_per_sec, rep.ops_per_sec.median);
  EXPECT_GT(rep.ops_per_sec.max, 4 * rep.ops_per_sec.min);
  // Each window of the pooled series says which repeat measured it, in order, so a device
  // state's figures can be had per repeat (analysis/device_states.h).
  std::vector<std::uint32_t> repeats;
  for (const probes::SeriesPoint& s : r.series) repeats.push_back(s.repeat);
  EXPECT_TRUE(std::is_sorted(repeats.begin(), repeats.end()));
  ASSERT_FALSE(repeats.empty());
  EXPECT_EQ(repeats.front(), 0u);
  EXPECT_EQ(repeats.back(), 2u);
  // A reference sample before each repeat's probe, and one at the end.
  EXPECT_EQ(t.reference.size(), 4u);
  EXPECT_EQ(listener_.phases,
            (std::vector<std::string>{"repeat 1/3 probe", "repeat 2/3 probe", "repeat 3/3 probe"}));
  EXPECT_TRUE(t.unfinished.empty());
}

TEST_F(RepeatTest, OneRepeatKeepsTheRowAsItWas) {
  Execution ex = Execute(fake_, plan_, listener_);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const model::Target& t = ex.report.targets.at(0);
  EXPECT_TRUE(t.probe_repeats.empty());
  EXPECT_EQ(t.probes.at(0).ops, 5u);
  EXPECT_EQ(listener_.phases, (std::vector<std::string>{"probe"}));
  EXPECT_EQ(ex.report.context.options.count("repeat"), 0u);
}

TEST_F(RepeatTest, TheBudgetIsEachRepeats) {
  plan_.budget_ns = 2'000'000'000;
  plan_.repeats = 4;
  EXPECT_EQ(plan_.RunBudgetNs(), 8'000'000'000u);
  Plan once = plan_;
  once.repeats = 1;
  EXPECT_EQ(PlannedPhases(plan_).probes, 4 * PlannedPhases(once).probes);
  nlohmann::json described = Describe(plan_);
  EXPECT_EQ(described["repeat"], 4);
  EXPECT_EQ(described["budget_per"], "repeat");
}

TEST_F(RepeatTest, InterleavedRepeatsAreTheirRoundsOverEveryPath) {
  plan_.command = "compare";
  plan_.paths = {a_.path(), b_.path()};
  plan_.schedule = Schedule::kInterleaved;
  plan_.rounds = 2;
  plan_.repeats = 2;
  Execution ex = Execute(fake_, plan_, listener_);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  for (const model::Target& t : ex.report.targets) {
    ASSERT_EQ(t.probes.size(), 1u);
    EXPECT_EQ(t.probes[0].ops, 20u);  // 5 a round, 2 rounds a repeat, 2 repeats
    ASSERT_EQ(t.probe_repeats.size(), 1u);
    EXPECT_EQ(t.probe_repeats[0].p50_ns.n, 2u);
    EXPECT_NEAR(t.probe_repeats[0].p50_ns.median, 2.0 * kMs, 0.1 * kMs);
  }
  ASSERT_EQ(listener_.phases.size(), 8u);  // 2 paths x 2 rounds x 2 repeats
  EXPECT_EQ(listener_.phases[0], "repeat 1/2 round 1/2 probe");
  EXPECT_EQ(listener_.phases[4], "repeat 2/2 round 1/2 probe");
}

TEST_F(RepeatTest, TheMatrixRepeatsItsRoundsAndEachRowGetsItsSpreads) {
  plan_.command = "sqlite";
  plan_.run_probes = false;
  plan_.run_sqlite = true;
  plan_.repeats = 2;
  sqlite_bench::CommitConfig full, normal;
  normal.sync = sqlite_bench::Synchronous::kNormal;
  plan_.sqlite.configs = {full, normal};
  plan_.sqlite.options.fixed_commits = 3;
  plan_.sqlite.options.repetitions = 2;
  plan_.sqlite.options.warmup_commits = 0;
  plan_.sqlite.options.device_warmup_ns = 0;
  Execution ex = Execute(platform::Default(), plan_, listener_);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const model::Target& t = ex.report.targets.at(0);
  ASSERT_EQ(t.sqlite.size(), 2u);
  for (const model::SqliteEntry& e : t.sqlite) {
    EXPECT_EQ(e.result.outcome, probes::Outcome::kOk) << e.result.reason;
    EXPECT_EQ(e.result.repetitions, 4u);  // 2 a repeat
    EXPECT_EQ(e.result.commits, 12u);
    ASSERT_TRUE(e.repeats.has_value());
    EXPECT_EQ(e.repeats->commits_per_sec.n, 2u);
    EXPECT_EQ(e.repeats->p50_ns.n, 2u);
    EXPECT_DOUBLE_EQ(e.result.commits_per_sec, e.repeats->commits_per_sec.median);
    EXPECT_LE(e.repeats->commits_per_sec.min, e.repeats->commits_per_sec.max);
  }
  EXPECT_TRUE(t.unfinished.empty());
  // Each configuration's setup, then 2 rounds of 2 configurations per repeat.
  const std::vector<std::string>& p = listener_.phases;
  EXPECT_EQ(std::count(p.begin(), p.end(), "sqlite"), 2);
  EXPECT_EQ(std::count(p.begin(), p.end(), "repeat 1/2 sqlite"), 4);
  EXPECT_EQ(std::count(p.begin(), p.end(), "repeat 2/2 sqlite"), 4);
}

TEST(CombineRunsTest, RunsOfOneConfigurationPoolTheirCountsAndShowTheMedians) {
  auto run = [](double rate, std::uint64_t p50, std::uint64_t commits) {
    sqlite_bench::CommitResult r;
    r.repetitions = 2;
    r.commits = commits;
    r.rows = commits;
    r.repetition_commits_per_sec = {rate, rate};
    r.commits_per_sec = rate;
    r.latency = {.count = commits,
                 .min = p50 / 2,
                 .p50 = p50,
                 .max = p50 * 3,
                 .mean = static_cast<double>(p50)};
    return r;
  };
  std::optional<model::SqliteRepeats> spreads;
  sqlite_bench::CommitResult row = CombineRuns(
      {run(300, 3'000'000, 10), run(500, 2'000'000, 20), run(100, 9'000'000, 30)}, spreads);
  EXPECT_EQ(row.repetitions, 6u);
  EXPECT_EQ(row.commits, 60u);
  EXPECT_EQ(row.repetition_commits_per_sec.size(), 6u);
  EXPECT_EQ(row.latency.count, 60u);
  EXPECT_EQ(row.latency.min, 1'000'000u);
  EXPECT_EQ(row.latency.max, 27'000'000u);
  ASSERT_TRUE(spreads.has_value());
  EXPECT_EQ(spreads->commits_per_sec, (model::RepeatSpread{300, 100, 500, 3}));
  EXPECT_EQ(row.commits_per_sec, 300.0);
  EXPECT_EQ(row.latency.p50, 3'000'000u);

  std::optional<model::SqliteRepeats> none;
  EXPECT_EQ(CombineRuns({run(300, 3'000'000, 10)}, none).commits, 10u);
  EXPECT_FALSE(none.has_value());
}

}  // namespace
}  // namespace durprobe::run
