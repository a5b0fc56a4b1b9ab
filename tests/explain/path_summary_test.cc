// The answer first (issue 22, points 1 and 2): what the summary picks and what the advice cites,
// from a target whose numbers are known.
#include "explain/path_summary.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/durability_risk.h"
#include "explain/path_advice.h"
#include "gate/presets.h"
#include "tests/sqlite_samples.h"

namespace durprobe::explain {
namespace {

using sqlite_bench::JournalMode;
using sqlite_bench::Synchronous;

model::SqliteEntry Row(JournalMode j, Synchronous s, double commits_per_sec,
                       std::uint32_t rows = 1) {
  model::SqliteEntry e;
  e.result = testing_support::DeleteFull();
  e.result.config.journal = j;
  e.result.config.sync = s;
  e.result.config.rows_per_commit = rows;
  e.result.commits_per_sec = commits_per_sec;
  e.result.rows_per_sec = commits_per_sec * rows;
  return e;
}

model::Target Measured() {
  model::Target t;
  t.path = "/data";
  t.probes = testing_support::Probes();
  t.probes[0].ops_per_sec = 1713;
  t.probes[0].sync_latency.count = 233;
  t.probes[0].sync_latency.p99 = 8'000'000;
  t.sqlite = {Row(JournalMode::kDelete, Synchronous::kFull, 75),
              Row(JournalMode::kWal, Synchronous::kFull, 573),
              Row(JournalMode::kWal, Synchronous::kNormal, 43'640),
              Row(JournalMode::kWal, Synchronous::kOff, 46'656),
              Row(JournalMode::kWal, Synchronous::kFull, 400, 100)};
  t.findings = {{model::Severity::kInfo, "sync_bimodal", "two clusters"},
                {model::Severity::kWarn, "volatile_write_cache_no_fua", "a cache"},
                {model::Severity::kWarn, "sync_tail_heavy", "a tail"}};
  analysis::AssessRisks(t);
  return t;
}

TEST(PathSummaryTest, PicksTheDefaultTheFastestSafeAndTheFastestThatRisksTheLastCommits) {
  model::PathSummary s = SummarizePath(Measured());
  ASSERT_TRUE(s.sqlite_default && s.sqlite_safe && s.sqlite_fast);
  EXPECT_EQ(s.sqlite_default->label, "DELETE/FULL x1");
  EXPECT_EQ(s.sqlite_safe->label, "WAL/FULL x1");
  EXPECT_NEAR(*s.sqlite_safe->vs_default, 573.0 / 75.0, 1e-9);
  EXPECT_EQ(s.sqlite_fast->label, "WAL/NORMAL x1");  // OFF risks corruption: never offered
  EXPECT_EQ(NameOf(s.sqlite_fast->risk), "recent_commits");
  EXPECT_EQ(s.sync_probe, "fdatasync overwrite 4 KiB");
  EXPECT_EQ(*s.sync_p50_ns, 100'000);
  EXPECT_EQ(*s.sync_p99_ns, 8'000'000);
  EXPECT_EQ(*s.synced_writes_per_sec, 1713);
  EXPECT_EQ(s.findings,
            (std::vector<std::string>{"volatile_write_cache_no_fua", "sync_tail_heavy"}));
}

TEST(PathSummaryTest, WithoutADurabilityVerdictItSaysNotAssessed) {
  model::PathSummary s = SummarizePath(Measured());
  EXPECT_FALSE(s.durability.has_value());
  EXPECT_EQ(s.durability_line, "durability not assessed");
  EXPECT_NE(s.next_step.find("durprobe crashsim /data"), std::string::npos) << s.next_step;
}

TEST(PathSummaryTest, ANotDurablePathOffersNoSettingAndSaysWhichLayer) {
  model::Target t = Measured();
  t.durability = model::Durability{.verdict = model::DurabilityVerdict::kNotDurable,
                                   .deciding_layer = model::LayerKind::kFilesystem,
                                   .reason = "tmpfs keeps files in memory"};
  model::PathSummary s = SummarizePath(t);
  EXPECT_EQ(s.durability, model::DurabilityVerdict::kNotDurable);
  EXPECT_EQ(s.durability_line,
            "not_durable (deciding layer: filesystem): tmpfs keeps files in memory");
  EXPECT_NE(s.next_step.find("filesystem"), std::string::npos);
  t.summary = s;
  std::vector<model::PathAdvice> advice = AdviseTarget(t, s);
  ASSERT_FALSE(advice.empty());
  EXPECT_EQ(advice[0].system, "sqlite");
  EXPECT_EQ(advice[0].setting, "none keeps commits here");
}

TEST(PathSummaryTest, EachPieceOfAdviceCitesItsMeasurement) {
  model::Target t = Measured();
  AddPathSummary(t);
  ASSERT_TRUE(t.summary);
  ASSERT_GE(t.advice.size(), 4u);
  EXPECT_EQ(t.advice[0].setting, "journal_mode=WAL, synchronous=FULL");
  EXPECT_EQ(t.advice[0].evidence, "sqlite WAL/FULL x1: 573 commits/s, 7.64x DELETE/FULL x1");
  EXPECT_EQ(t.advice[1].setting, "journal_mode=WAL, synchronous=NORMAL");
  EXPECT_EQ(t.advice[2].setting, "100 rows per transaction");
  EXPECT_NE(t.advice[2].evidence.find("40,000 rows/s"), std::string::npos) << t.advice[2].evidence;
  // No pg_test_fsync probes and no etcd probes ran: each says so and how to measure it.
  EXPECT_EQ(t.advice[3].system, "postgresql");
  EXPECT_EQ(t.advice[3].setting, "not measured");
  EXPECT_EQ(t.advice[3].evidence, "run `durprobe check --preset postgres-wal /data`");
  EXPECT_EQ(t.advice.back().system, "etcd");
  EXPECT_EQ(t.advice.back().setting, "not measured");
}

// Every probe of the etcd preset measured, each p99 from 200 operations: under its limit, but
// from fewer than the 367 that bound a p99 from above. The advice says it cannot tell; "fits,
// every rule passes" stood over the undecided rule.
TEST(PathSummaryTest, EtcdAdviceOnAnUndecidedRuleCannotTell) {
  Result<gate::Policy> etcd = gate::Preset("etcd");
  ASSERT_TRUE(etcd.ok());
  model::Target t = Measured();
  t.probes.clear();
  for (const probes::ProbeSpec& spec : etcd->ProbeSpecs()) {
    probes::ProbeResult r = testing_support::Probes()[0];
    r.spec = spec;
    r.ops = r.latency.count = r.sync_latency.count = 200;
    r.latency.p99 = r.sync_latency.p99 = r.latency.max = r.sync_latency.max = 1'000'000;
    r.ops_per_sec = 900;
    t.probes.push_back(r);
  }
  t.durability = model::Durability{.verdict = model::DurabilityVerdict::kDurable,
                                   .deciding_layer = model::LayerKind::kDevice,
                                   .reason = "write-through"};
  AddPathSummary(t);
  auto said = std::find_if(t.advice.begin(), t.advice.end(),
                           [](const model::PathAdvice& a) { return a.system == "etcd"; });
  ASSERT_NE(said, t.advice.end());
  EXPECT_EQ(said->setting, "cannot tell");
  EXPECT_NE(said->why.find("is not decided by this run"), std::string::npos) << said->why;
  EXPECT_NE(said->evidence.find("cannot tell"), std::string::npos) << said->evidence;
}

// ops syncs of primitive over a second that made `flushes` on vda, with a control.
probes::ProbeResult Counted(probes::Primitive primitive, std::uint64_t flushes) {
  probes::ProbeResult r;
  r.spec = {primitive, probes::Pattern::kOverwrite, 4096};
  r.ops = r.latency.count = 400;
  r.device_flushes = {.counted = true,
                      .devices = {{"vda", flushes, 400, 0, 0}},
                      .ops = 400,
                      .ns = 1'000'000'000,
                      .control_ops = 100,
                      .control_ns = 31'250'000,
                      .idle_ns = 31'250'000};
  return r;
}

// A preload that makes only fdatasync a no-op: PostgreSQL's default would lose its WAL, fsync
// keeps it; with no method's syncs seen to reach the device, none is offered.
TEST(PathSummaryTest, PostgresAdviceAvoidsAMethodWhoseSyncsReachedNoDevice) {
  model::Target t = Measured();
  t.probes = {Counted(probes::Primitive::kFdatasync, 0), Counted(probes::Primitive::kFsync, 400)};
  AddPathSummary(t);
  auto postgres = std::find_if(t.advice.begin(), t.advice.end(),
                               [](const model::PathAdvice& a) { return a.system == "postgresql"; });
  ASSERT_NE(postgres, t.advice.end());
  EXPECT_EQ(postgres->setting, "wal_sync_method=fsync");
  EXPECT_NE(postgres->why.find("fdatasync's syncs reached no device here"), std::string::npos)
      << postgres->why;
  EXPECT_EQ(postgres->evidence, "fdatasync reached no device: 400 syncs, 0 flushes");
  t.probes = {Counted(probes::Primitive::kFdatasync, 0), Counted(probes::Primitive::kFsync, 0)};
  t.summary.reset();
  AddPathSummary(t);
  postgres = std::find_if(t.advice.begin(), t.advice.end(),
                          [](const model::PathAdvice& a) { return a.system == "postgresql"; });
  ASSERT_NE(postgres, t.advice.end());
  EXPECT_EQ(postgres->setting, "none keeps the WAL here");
}

TEST(PathSummaryTest, CrashsimThatSawALossWithdrawsASafeSetting) {
  model::Target t = Measured();
  sqlite_bench::CrashsimResult lost;
  lost.config = {JournalMode::kWal, Synchronous::kFull, 1};
  lost.trials = 10;
  lost.trials_with_loss = 2;
  lost.lost_commits_max = 1;
  t.crashsim = {lost};
  model::PathSummary s = SummarizePath(t);
  // WAL/FULL was the only single-row setting documented to keep every commit (DELETE/FULL may
  // roll the last one back): none is offered now, and the fastest that risks the last commits
  // stays WAL/NORMAL.
  EXPECT_FALSE(s.sqlite_safe);
  ASSERT_TRUE(s.sqlite_fast);
  EXPECT_EQ(s.sqlite_fast->label, "WAL/NORMAL x1");
}

TEST(PathSummaryTest, NothingMeasuredMeansNoSummary) {
  model::Target t;
  t.path = "/x";
  AddPathSummary(t);
  EXPECT_FALSE(t.summary);
  EXPECT_TRUE(t.advice.empty());
}

}  // namespace
}  // namespace durprobe::explain
