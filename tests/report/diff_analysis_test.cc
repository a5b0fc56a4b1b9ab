#include "report/diff_analysis.h"

#include <gtest/gtest.h>

namespace durprobe::report {
namespace {

using nlohmann::json;

json Config(double syncs, double sync_ns, double non_sync_ns) {
  double t = syncs * sync_ns + non_sync_ns;
  return {{"journal_mode", "WAL"},
          {"synchronous", "FULL"},
          {"rows_per_commit", 1},
          {"commits_per_sec", 1e9 / t},
          {"syncs_per_commit", {{"total", syncs}}},
          {"sync_time_share", syncs * sync_ns / t}};
}

TEST(DiffConfigTest, RecoversPerSyncAndNonSyncTimes) {
  ConfigDiff d = DiffConfig(Config(1, 200'000, 50'000), Config(2, 300'000, 80'000));
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

}  // namespace
}  // namespace durprobe::report

namespace durprobe::report {
namespace {

TEST(DiffDifferencesTest, OneSidedBlockIsOneDifferenceAndNullIsAbsent) {
  using nlohmann::json;
  json a = {
      {"schema", "durprobe.report/1"},
      {"context", {{"host", "a"}, {"kernel", "6.1"}}},
      {"targets",
       {{{"mount",
          {{"fstype", "ext4"},
           {"dev", "7:0"},
           {"model", nullptr},
           {"device", {{"name", "loop0"}, {"dev", "7:0"}, {"write_cache", "write back"}}}}}}}}};
  json b = {{"schema", "durprobe.report/1"},
            {"context", {{"host", "b"}, {"kernel", "6.1"}}},
            {"targets",
             {{{"mount", {{"fstype", "fuse.bindfs"}, {"dev", "0:52"}, {"device", nullptr}}}}}}};
  Diff d = DiffReports(a, b, "a.json", "b.json");
  ASSERT_EQ(d.differences.size(), 2u);
  EXPECT_EQ(d.differences[0].key, "mount.fstype");
  EXPECT_EQ(d.differences[1].key, "mount.device");
  EXPECT_EQ(d.differences[1].a, "(present)");
  EXPECT_EQ(d.differences[1].b, "(absent)");
  EXPECT_EQ(d.verdict.factor, "configuration");
}

}  // namespace
}  // namespace durprobe::report
