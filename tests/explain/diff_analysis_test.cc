#include "explain/diff_analysis.h"

#include <gtest/gtest.h>

#include "tests/diff_fixtures.h"
#include "tests/verdicts.h"

namespace durprobe::explain {
namespace {

// A WAL/FULL row as a saved report holds it: commit rate, syncs per commit and sync time share.
model::SqliteEntry Config(double syncs, double sync_ns, double non_sync_ns) {
  double t = syncs * sync_ns + non_sync_ns;
  model::SqliteEntry e;
  e.result.config = {sqlite_bench::JournalMode::kWal, sqlite_bench::Synchronous::kFull};
  e.result.commits_per_sec = 1e9 / t;
  e.saved = model::SavedPerCommit{{.total = syncs}, syncs * sync_ns / t};
  return e;
}

TEST(DiffConfigTest, RecoversPerSyncAndNonSyncTimes) {
  ConfigDiff d = DiffConfig(Config(1, 200'000, 50'000), Config(2, 300'000, 80'000));
  EXPECT_EQ(d.journal_mode, "WAL");
  EXPECT_EQ(d.synchronous, "FULL");
  EXPECT_NEAR(d.commit_ns_a, 250'000, 1);
  EXPECT_NEAR(d.commit_ns_b, 680'000, 1);
  EXPECT_NEAR(d.sync_ns_a, 200'000, 1);
  EXPECT_NEAR(d.sync_ns_b, 300'000, 1);
  EXPECT_NEAR(d.non_sync_ns_b, 80'000, 1);
}

TEST(DiffConfigTest, SharesAddUpToTheWholeGap) {
  ConfigDiff d = DiffConfig(Config(1, 200'000, 50'000), Config(2, 300'000, 80'000));
  EXPECT_NEAR(d.share_sync_latency + d.share_sync_count + d.share_non_sync, 1.0, 1e-9);
  // Gap 430 us: latency (100 us x 1.5 syncs) = 150, count (1 sync x 250 us) = 250, rest 30.
  EXPECT_NEAR(d.share_sync_latency, 150.0 / 430.0, 1e-6);
  EXPECT_NEAR(d.share_sync_count, 250.0 / 430.0, 1e-6);
  EXPECT_NEAR(d.share_non_sync, 30.0 / 430.0, 1e-6);
}

TEST(DiffConfigTest, NoSyncsOnEitherSideIsAllNonSync) {
  ConfigDiff d = DiffConfig(Config(0, 0, 10'000), Config(0, 0, 30'000));
  EXPECT_DOUBLE_EQ(d.share_non_sync, 1.0);
  EXPECT_DOUBLE_EQ(d.share_sync_latency, 0.0);
}

TEST(DiffConfigTest, CountsOfAMeasuredRowGiveTheSameFigures) {
  // 100 commits, 1 WAL sync each at 200 us, 25 ms in total: 250 us per commit.
  model::SqliteEntry measured;
  measured.result.config = {sqlite_bench::JournalMode::kWal, sqlite_bench::Synchronous::kFull};
  measured.result.commits = 100;
  measured.result.timed_ns = 25'000'000;
  measured.result.commits_per_sec = 4000;
  measured.result.commit_counts.of(sqlite_bench::FileKind::kWal).syncs = 100;
  measured.result.commit_counts.of(sqlite_bench::FileKind::kWal).sync_ns = 20'000'000;
  ConfigDiff d = DiffConfig(measured, Config(1, 200'000, 50'000));
  EXPECT_NEAR(d.syncs_a, 1.0, 1e-12);
  EXPECT_NEAR(d.sync_ns_a, 200'000, 1);
  EXPECT_NEAR(d.non_sync_ns_a, 50'000, 1);
  EXPECT_NEAR(d.commit_ns_b - d.commit_ns_a, 0.0, 1);
}

TEST(DiffMatchingTest, ConfigurationsMatchOnStatementAndPayloadToo) {
  // WAL/FULL three times: reused 100 B, per_row 100 B, reused 4000 B, at different rates.
  Diff d = testing_support::DiffFixtures("statements.json", "statements.json");
  ASSERT_EQ(d.configs.size(), 3u);
  for (const ConfigDiff& c : d.configs) {
    EXPECT_DOUBLE_EQ(c.commits_per_sec_a, c.commits_per_sec_b) << c.label;
  }
  EXPECT_EQ(d.configs[1].statement, "per_row");
  EXPECT_EQ(d.configs[2].payload_bytes, 4000u);
  EXPECT_EQ(NameOf(d.verdict.factor), "configuration");
  EXPECT_NE(d.verdict.message.find("agree"), std::string::npos) << d.verdict.message;
}

TEST(DiffDurabilityTest, ASideWhoseSyncsDoNoDurableWorkHeadsTheVerdict) {
  // a.json against itself with b's path found to be a memory filesystem: b is faster only because
  // it keeps nothing, and the verdict says so before the measured attribution.
  model::Report a = testing_support::LoadDiffFixture("a.json");
  model::Report b = testing_support::LoadDiffFixture("b_sync_latency.json");
  testing_support::MarkNotDurable(b.targets[0], "sync_noop_memory_fs");
  b.targets[0].findings.push_back(
      {model::Severity::kWarn, "latency_drift", "not a durability code"});
  Result<Diff> d = DiffReports(a, b, "a.json", "b.json");
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(NameOf(d->verdict.factor), "durability");
  const std::string& m = d->verdict.message;
  EXPECT_EQ(m.rfind("b's syncs do no durable work (sync_noop_memory_fs): ", 0), 0u) << m;
  EXPECT_EQ(m.find("latency_drift"), std::string::npos) << m;
  EXPECT_NE(m.find("The measured gap: sync_latency: "), std::string::npos) << m;
  // Both sides: neither figure is a cost of durability.
  testing_support::MarkNotDurable(a.targets[0], "barrier_disabled");
  Result<Diff> both = DiffReports(a, b, "a.json", "b.json");
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(NameOf(both->verdict.factor), "durability");
  EXPECT_NE(both->verdict.message.find("a: barrier_disabled; b: sync_noop_memory_fs"),
            std::string::npos)
      << both->verdict.message;
  // Neither: the measured factor, as before.
  Result<Diff> plain =
      DiffReports(testing_support::LoadDiffFixture("a.json"),
                  testing_support::LoadDiffFixture("b_sync_latency.json"), "a", "b");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(NameOf(plain->verdict.factor), "sync_latency");
}

TEST(DiffDurabilityTest, TheNonDurablePairHeadsSeveralPairs) {
  model::Report a = testing_support::LoadDiffFixture("two_paths_a.json");
  model::Report b = testing_support::LoadDiffFixture("two_paths_b.json");
  testing_support::MarkNotDurable(b.targets[1], "sync_noop_suspected", model::LayerKind::kMeasured);
  Result<Diff> d = DiffReports(a, b, "a", "b");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(NameOf(d->pairs[0].verdict.factor), "sync_latency");
  EXPECT_EQ(NameOf(d->pairs[1].verdict.factor), "durability");
  EXPECT_EQ(NameOf(d->verdict.factor), "durability");
  EXPECT_EQ(d->verdict.message.rfind("/var/lib/other (a) vs", 0), 0u) << d->verdict.message;
}

TEST(DiffPairingTest, SeveralPathsArePairedByPosition) {
  Diff d = testing_support::DiffFixtures("two_paths_a.json", "two_paths_b.json");
  ASSERT_EQ(d.pairs.size(), 2u);
  EXPECT_EQ(d.pairs[1].a_path, "/var/lib/other");
  EXPECT_EQ(d.configs.size(), 4u);
  EXPECT_EQ(NameOf(d.pairs[0].verdict.factor), "sync_latency");
  EXPECT_EQ(NameOf(d.pairs[1].verdict.factor), "sync_latency");
  EXPECT_TRUE(testing_support::ListsDifference(
      d, "targets[0].mount.fstype"));  // ext4 against xfs, first pair only
  EXPECT_FALSE(testing_support::ListsDifference(d, "targets[1].mount.fstype"));
  EXPECT_TRUE(testing_support::ListsDifference(d, "targets[1].mount.device.write_cache"));
  EXPECT_NE(d.verdict.message.find("(a) vs"), std::string::npos) << d.verdict.message;
}

TEST(DiffPairingTest, DifferentPathCountsNeedAChoice) {
  Result<Diff> d = DiffReports(testing_support::LoadDiffFixture("two_paths_a.json"),
                               testing_support::LoadDiffFixture("a.json"), "two.json", "one.json");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("--path A_PATH --path B_PATH"), std::string::npos)
      << d.status().message();
  EXPECT_NE(d.status().message().find("/var/lib/other"), std::string::npos);
  Diff chosen = testing_support::DiffFixtures("two_paths_a.json", "b_sync_latency.json",
                                              {"/var/lib/other", "/var/lib/app"});
  ASSERT_EQ(chosen.pairs.size(), 1u);
  EXPECT_EQ(chosen.pairs[0].a_path, "/var/lib/other");
  EXPECT_TRUE(testing_support::ListsDifference(
      chosen, "mount.device.write_cache"));                                // one pair: plain keys
  EXPECT_FALSE(testing_support::ListsDifference(chosen, "mount.fstype"));  // xfs both
  Result<Diff> missing = DiffReports(testing_support::LoadDiffFixture("a.json"),
                                     testing_support::LoadDiffFixture("a.json"), "a.json", "a.json",
                                     {"/nope", "/var/lib/app"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("--path '/nope' is not in a.json"), std::string::npos)
      << missing.status().message();
}

}  // namespace
}  // namespace durprobe::explain

namespace durprobe::explain {
namespace {

using nlohmann::json;

// A number beyond a double threw out_of_range past ParseJsonText and aborted `durprobe diff`
// (found by the fuzzer).
TEST(ParseJsonTextTest, NumberTooLargeIsAnError) {
  for (const char* text : {"{\"x\": 1e999}", "[-0.92307e923]"}) {
    Result<nlohmann::json> doc = codec::ParseJsonText(text);
    ASSERT_FALSE(doc.ok()) << text;
    EXPECT_EQ(doc.status().message(), "not valid JSON: a number too large to represent");
  }
}

// Issue 32, item 15: a report of 10,000 paths against one of 1 printed every path in one 89 KB
// error line. The first few are named, then the count.
TEST(DiffPathsTest, AnErrorNamesTheFirstPathsThenTheCount) {
  model::Report a = testing_support::LoadDiffFixture("a.json");
  model::Report b = a;
  model::Target t = b.targets[0];
  b.targets.clear();
  for (int i = 0; i < 10000; ++i) {
    t.path = "/mnt/volume-" + std::to_string(i);
    b.targets.push_back(t);
  }
  for (const PathChoice& choice : {PathChoice{}, PathChoice{a.targets[0].path, "/nope"}}) {
    Result<Diff> d = DiffReports(a, b, "a.json", "b.json", choice);
    ASSERT_FALSE(d.ok());
    std::string m = d.status().message();
    EXPECT_LT(m.size(), 500u) << m.substr(0, 500);
    EXPECT_NE(m.find("/mnt/volume-0, /mnt/volume-1, /mnt/volume-2, /mnt/volume-3, /mnt/volume-4 "
                     "and 9995 more"),
              std::string::npos)
        << m;
  }
}

}  // namespace
}  // namespace durprobe::explain
