#include "report/diff_analysis.h"

#include <gtest/gtest.h>

namespace durprobe::report {
namespace {

// A WAL/FULL row as a saved report holds it: commit rate, syncs per commit and sync time share.
SqliteEntry Config(double syncs, double sync_ns, double non_sync_ns) {
  double t = syncs * sync_ns + non_sync_ns;
  SqliteEntry e;
  e.result.config = {sqlite_bench::JournalMode::kWal, sqlite_bench::Synchronous::kFull};
  e.result.commits_per_sec = 1e9 / t;
  e.saved = SavedPerCommit{{.total = syncs}, syncs * sync_ns / t};
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
  SqliteEntry measured;
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

Report WithMount(const std::string& host, platform::MountInfo mount) {
  Report r;
  r.context.host = host;
  r.context.kernel = "6.1";
  Target t;
  t.path = "/data";
  t.mount = std::move(mount);
  r.targets.push_back(std::move(t));
  return r;
}

TEST(DiffDifferencesTest, OneSidedBlockIsOneDifferenceAndNullIsAbsent) {
  platform::MountInfo ma;
  ma.fstype = "ext4";
  ma.dev_major = 7;
  platform::DeviceInfo loop;
  loop.name = "loop0";
  loop.major = 7;
  loop.write_cache = "write back";
  ma.device = loop;
  platform::MountInfo mb;
  mb.fstype = "fuse.bindfs";
  mb.dev_minor = 52;
  Diff d = DiffReports(WithMount("a", ma), WithMount("b", mb), "a.json", "b.json");
  ASSERT_EQ(d.differences.size(), 2u);
  EXPECT_EQ(d.differences[0].key, "mount.fstype");
  EXPECT_EQ(d.differences[1].key, "mount.device");
  EXPECT_EQ(d.differences[1].a, "(present)");
  EXPECT_EQ(d.differences[1].b, "(absent)");
  EXPECT_EQ(d.verdict.factor, "configuration");
}

}  // namespace
}  // namespace durprobe::report
