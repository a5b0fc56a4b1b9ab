#include "run/check_plan.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "probes/runner.h"
#include "tests/test_dirs.h"

namespace durprobe::run {
namespace {

constexpr std::uint64_t kPath = 8'000'000'000;  // one path's share of the budget

TEST(CheckPlanTest, ProbesAloneTakeThePathsWholeShareLessTheReMeasures) {
  CheckShares s = SplitCheckBudget(kPath, true, false, false);
  EXPECT_EQ(s.remeasure_ns, kPath / kRemeasureReserve);
  EXPECT_EQ(s.probes_ns + s.remeasure_ns, kPath);
  EXPECT_EQ(s.concurrency_ns, 0u);
  EXPECT_EQ(s.sqlite_ns, 0u);
}

TEST(CheckPlanTest, ProbesAndSqliteHalveIt) {
  CheckShares s = SplitCheckBudget(kPath, true, false, true);
  EXPECT_EQ(s.probes_ns + s.remeasure_ns, kPath / 2);
  EXPECT_EQ(s.sqlite_ns, kPath / 2);
  EXPECT_EQ(s.concurrency_ns, 0u);
  // An odd share leaves no nanosecond out.
  CheckShares odd = SplitCheckBudget(7, true, false, true);
  EXPECT_EQ(odd.probes_ns + odd.remeasure_ns + odd.sqlite_ns, 7u);
}

TEST(CheckPlanTest, SqliteAloneTakesTheWholeShare) {
  CheckShares s = SplitCheckBudget(kPath, false, false, true);
  EXPECT_EQ(s.sqlite_ns, kPath);
  EXPECT_EQ(s.probes_ns, 0u);
  EXPECT_EQ(s.remeasure_ns, 0u);  // nothing to re-measure
}

TEST(CheckPlanTest, ConcurrencyCellsShareTheProbesPart) {
  CheckShares both = SplitCheckBudget(kPath, true, true, false);
  EXPECT_EQ(both.concurrency_ns, kPath / 2);
  EXPECT_EQ(both.probes_ns + both.remeasure_ns, kPath / 2);
  // No probe rule: the cells take the whole probes' part.
  CheckShares alone = SplitCheckBudget(kPath, false, true, false);
  EXPECT_EQ(alone.concurrency_ns, kPath);
  EXPECT_EQ(alone.probes_ns, 0u);
  CheckShares with_sqlite = SplitCheckBudget(kPath, false, true, true);
  EXPECT_EQ(with_sqlite.concurrency_ns, kPath / 2);
}

TEST(CheckPlanTest, SqliteTakesWhatTheProbesLeave) {
  // The rule as check has always applied it: the path's share less the probes' part, the
  // concurrency cells not subtracted (the deadline, run/deadline.h, holds the run to --budget).
  CheckShares s = SplitCheckBudget(kPath, true, true, true);
  EXPECT_EQ(s.probes_ns + s.remeasure_ns, kPath / 4);
  EXPECT_EQ(s.concurrency_ns, kPath / 4);
  EXPECT_EQ(s.sqlite_ns, kPath - kPath / 4);
  EXPECT_EQ(SplitCheckBudget(kPath, false, true, true).sqlite_ns, kPath);
}

TEST(CheckPlanTest, ProbesWarmUpLongerAndRunEnoughForATail) {
  probes::StopRule rule = CheckProbeRule(3'000'000'000, 3);
  EXPECT_EQ(rule.max_ns, 1'000'000'000u);  // the part split over the probes
  EXPECT_EQ(rule.min_ops, kCheckMinOps);
  EXPECT_EQ(rule.min_ops, 1000u);
  EXPECT_EQ(rule.warmup_ops, 50u);
  EXPECT_EQ(rule.warmup_ns, rule.max_ns / 5);
  EXPECT_DOUBLE_EQ(rule.target_ci, 0.02);
  EXPECT_DOUBLE_EQ(rule.tail_target_ci, kCheckTailCi);  // every preset probe waits for its p99
  EXPECT_TRUE(rule.tail_every_probe);
  // The operations a p99 rule reads are kept past the share (the schedule sets until when).
  EXPECT_EQ(rule.reserved_ops, probes::kTailMinOps);
  // A probe's floor (probes::kMinProbeNs) holds however many share a small part.
  probes::StopRule small = CheckProbeRule(10'000'000, 4);
  EXPECT_EQ(small.max_ns, probes::kMinProbeNs);
  EXPECT_EQ(small.warmup_ns, small.max_ns / 5);
}

// A probe a p99 rule reads keeps the count whose slowest bounds its p99; the others the
// fewest a p99 rests on, as every check probe's p99 may be read.
TEST(CheckPlanTest, AP99RulesProbeKeepsTheOperationsThatBoundItsP99) {
  const probes::ProbeSpec wal{probes::Primitive::kFdatasync, probes::Pattern::kPreallocated, 2300};
  const probes::ProbeSpec plain{probes::Primitive::kNone, probes::Pattern::kOverwrite};
  gate::Policy policy;
  policy.latency = {{.name = "p99", .spec = wal, .max_ns = 10'000'000}};
  EXPECT_EQ(CheckReserves(policy, {plain, wal}),
            (std::vector<std::uint64_t>{probes::kTailMinOps, probes::kTailBoundOps}));
  policy.latency[0].stat = gate::LatencyStat::kP50;
  EXPECT_EQ(CheckReserves(policy, {wal}), (std::vector<std::uint64_t>{probes::kTailMinOps}));
}

TEST(CheckPlanTest, TheLoadIsTheAskedOneWithThePolicysCompanionSyncs) {
  gate::Policy none;
  EXPECT_FALSE(CheckLoad(std::nullopt, none));
  probes::LoadRates asked{.reads_per_sec = 200, .writes_per_sec = 100};
  std::optional<probes::LoadRates> plain = CheckLoad(asked, none);
  ASSERT_TRUE(plain);
  EXPECT_DOUBLE_EQ(plain->reads_per_sec, 200);
  EXPECT_DOUBLE_EQ(plain->syncs_per_sec, 0);

  gate::Policy etcd;
  etcd.companion_syncs_per_sec = 7;
  etcd.companion_sync_bytes = 36 * 1024;
  std::optional<probes::LoadRates> companion = CheckLoad(std::nullopt, etcd);
  ASSERT_TRUE(companion);
  EXPECT_DOUBLE_EQ(companion->reads_per_sec, 0);
  EXPECT_DOUBLE_EQ(companion->syncs_per_sec, 7);
  EXPECT_EQ(companion->sync_bytes, 36u * 1024);
  std::optional<probes::LoadRates> both = CheckLoad(asked, etcd);
  ASSERT_TRUE(both);
  EXPECT_DOUBLE_EQ(both->writes_per_sec, 100);
  EXPECT_DOUBLE_EQ(both->syncs_per_sec, 7);
  // Companion syncs need both a rate and a size.
  etcd.companion_sync_bytes = 0;
  EXPECT_FALSE(CheckLoad(std::nullopt, etcd));
}

std::size_t ScratchesIn(const std::string& dir) {
  std::size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().filename().string().rfind(".durprobe-scratch-", 0) == 0) ++n;
  }
  return n;
}

const probes::LoadRates kSyncs{.syncs_per_sec = 20, .sync_bytes = 4096};

TEST(CheckPlanTest, EachPathsLoadRunsInItsOwnScratchUntilTheAnalysis) {
  testing_support::TempDir a, b;
  Result<BackgroundLoads> loads =
      BackgroundLoads::Start(platform::Default(), {a.path(), b.path()}, kSyncs);
  ASSERT_TRUE(loads.ok()) << loads.status().message();
  EXPECT_EQ(loads->size(), 2u);
  EXPECT_EQ(ScratchesIn(a.path()), 1u);
  EXPECT_EQ(ScratchesIn(b.path()), 1u);
  model::Report r;
  r.targets.resize(2);
  loads->StopInto(r);
  EXPECT_EQ(loads->size(), 0u);
  for (const model::Target& t : r.targets) {
    ASSERT_EQ(t.findings.size(), 1u);
    EXPECT_EQ(t.findings[0].code.rfind("background_load", 0), 0u) << t.findings[0].code;
  }
  EXPECT_EQ(ScratchesIn(a.path()), 0u);
  EXPECT_EQ(ScratchesIn(b.path()), 0u);
  loads->StopInto(r);  // stopped once
  EXPECT_EQ(r.targets[0].findings.size(), 1u);
}

TEST(CheckPlanTest, ALoadTheRunNeverAnalysedStopsAndLeavesNoScratch) {
  testing_support::TempDir a;
  {
    Result<BackgroundLoads> loads = BackgroundLoads::Start(platform::Default(), {a.path()}, kSyncs);
    ASSERT_TRUE(loads.ok()) << loads.status().message();
    EXPECT_EQ(ScratchesIn(a.path()), 1u);
  }
  EXPECT_EQ(ScratchesIn(a.path()), 0u);
}

TEST(CheckPlanTest, APathThatCannotTakeALoadIsOneLineAndStopsTheOthers) {
  testing_support::TempDir a;
  Result<BackgroundLoads> loads =
      BackgroundLoads::Start(platform::Default(), {a.path(), a.path() + "/missing"}, kSyncs);
  ASSERT_FALSE(loads.ok());
  EXPECT_EQ(loads.status().kind(), Status::Kind::kInvalidArgument);
  EXPECT_EQ(loads.status().message().find('\n'), std::string::npos) << loads.status().message();
  EXPECT_EQ(ScratchesIn(a.path()), 0u);
}

}  // namespace
}  // namespace durprobe::run
