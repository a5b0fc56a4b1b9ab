#include "report/diff_analysis.h"

#include <gtest/gtest.h>

namespace durprobe::report {
namespace {

using nlohmann::json;

json Config(double syncs, double sync_ns, double non_sync_ns) {
  double t = syncs * sync_ns + non_sync_ns;
  return {{"journal_mode", "WAL"}, {"synchronous", "FULL"}, {"rows_per_commit", 1},
          {"commits_per_sec", 1e9 / t}, {"syncs_per_commit", {{"total", syncs}}},
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

TEST(ParseJsonTextTest, MalformedAndTruncatedTextSayWhich) {
  EXPECT_NE(ParseJsonText("{\"schema\": \"durprobe.re").status().message().find("ends early"),
            std::string::npos);
  EXPECT_NE(ParseJsonText("{\"a\": nope}").status().message().find("syntax error at byte"),
            std::string::npos);
  EXPECT_TRUE(ParseJsonText("{}").ok());
}

TEST(ValidateReportTest, SchemaAndTargetsAreChecked) {
  EXPECT_FALSE(ValidateReport(json::array()).ok());
  EXPECT_NE(ValidateReport({{"schema", "durprobe.compare/1"}}).message().find("durprobe.compare/1"),
            std::string::npos);
  EXPECT_NE(ValidateReport({{"schema", "durprobe.report/1"}, {"targets", json::array()}})
                .message()
                .find("no targets"),
            std::string::npos);
  EXPECT_TRUE(ValidateReport({{"schema", "durprobe.report/1"},
                              {"targets", json::array({json::object()})}})
                  .ok());
}

}  // namespace
}  // namespace durprobe::report

namespace durprobe::report {
namespace {

TEST(DiffDifferencesTest, OneSidedBlockIsOneDifferenceAndNullIsAbsent) {
  using nlohmann::json;
  json a = {{"schema", "durprobe.report/1"},
            {"context", {{"host", "a"}, {"kernel", "6.1"}}},
            {"targets", {{{"mount", {{"fstype", "ext4"}, {"dev", "7:0"}, {"model", nullptr},
                                     {"device", {{"name", "loop0"}, {"dev", "7:0"},
                                                 {"write_cache", "write back"}}}}}}}}};
  json b = {{"schema", "durprobe.report/1"},
            {"context", {{"host", "b"}, {"kernel", "6.1"}}},
            {"targets", {{{"mount", {{"fstype", "fuse.bindfs"}, {"dev", "0:52"},
                                     {"device", nullptr}}}}}}};
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

// Reports of several configurations: how each configuration's gap weighs in the verdict, which
// one the message names, a B faster than A, and gaps all within noise.
namespace durprobe::report {
namespace {

using nlohmann::json;

json ConfigOf(const std::string& journal, double syncs, double sync_ns, double non_sync_ns) {
  double t = syncs * sync_ns + non_sync_ns;
  return {{"journal_mode", journal},
          {"synchronous", "FULL"},
          {"rows_per_commit", 1},
          {"commits_per_sec", 1e9 / t},
          {"syncs_per_commit", {{"total", syncs}}},
          {"sync_time_share", syncs * sync_ns / t}};
}

json ReportOf(const std::vector<json>& configs) {
  return {{"schema", "durprobe.report/1"},
          {"context", {{"kernel", "6.1"}}},
          {"targets", {{{"path", "/data"}, {"sqlite", configs}}}}};
}

TEST(DiffSeveralConfigsTest, ALargeGapOutweighsSmallOnes) {
  // WAL and TRUNCATE: 1.4x gaps, all outside syncs. DELETE: a 300x gap, all sync latency.
  // Weighted by log(ratio), DELETE's one configuration outweighs the two others together.
  json a = ReportOf({ConfigOf("WAL", 1, 10'000, 100'000), ConfigOf("TRUNCATE", 1, 10'000, 100'000),
                     ConfigOf("DELETE", 2, 10'000, 10'000)});
  json b = ReportOf({ConfigOf("WAL", 1, 10'000, 144'000), ConfigOf("TRUNCATE", 1, 10'000, 144'000),
                     ConfigOf("DELETE", 2, 4'500'000, 10'000)});
  Diff d = DiffReports(a, b, "a.json", "b.json");
  ASSERT_EQ(d.configs.size(), 3u);
  EXPECT_EQ(d.verdict.factor, "sync_latency");
  EXPECT_EQ(d.verdict.message.rfind("DELETE FULL (rows/commit 1)", 0), 0u) << d.verdict.message;
  // Counted unweighted, two configurations of non_sync would have won.
  EXPECT_NEAR(d.configs[0].share_non_sync, 1.0, 1e-9);
}

TEST(DiffSeveralConfigsTest, HeadlineIsTheConfigurationWithTheLargestGap) {
  // Both gaps are sync count; the message quotes the 3x one, not the 2x one.
  json a = ReportOf({ConfigOf("WAL", 1, 100'000, 0), ConfigOf("DELETE", 1, 100'000, 0)});
  json b = ReportOf({ConfigOf("WAL", 2, 100'000, 0), ConfigOf("DELETE", 3, 100'000, 0)});
  Diff d = DiffReports(a, b, "a.json", "b.json");
  EXPECT_EQ(d.verdict.factor, "sync_count");
  EXPECT_EQ(d.verdict.message.rfind("DELETE FULL", 0), 0u) << d.verdict.message;
  EXPECT_NE(d.verdict.message.find("1.00 syncs per commit in a against 3.00 in b"),
            std::string::npos)
      << d.verdict.message;
}

TEST(DiffSeveralConfigsTest, BFasterThanAIsAttributedTheSameWay) {
  json a = ReportOf({ConfigOf("WAL", 1, 2'000'000, 50'000)});
  json b = ReportOf({ConfigOf("WAL", 1, 200'000, 50'000)});
  Diff d = DiffReports(a, b, "a.json", "b.json");
  ASSERT_EQ(d.configs.size(), 1u);
  const ConfigDiff& c = d.configs[0];
  EXPECT_LT(c.commit_ns_b, c.commit_ns_a);
  EXPECT_NEAR(c.share_sync_latency, 1.0, 1e-9);
  EXPECT_NEAR(c.share_sync_count + c.share_non_sync, 0.0, 1e-9);
  EXPECT_EQ(d.verdict.factor, "sync_latency");
  EXPECT_NE(d.verdict.message.find("a sync takes 2.00 ms in a and 200 us in b"), std::string::npos)
      << d.verdict.message;
  // The same reports the other way round: the same factor, the same share.
  Diff back = DiffReports(b, a, "b.json", "a.json");
  EXPECT_EQ(back.verdict.factor, "sync_latency");
  EXPECT_NEAR(back.configs[0].share_sync_latency, 1.0, 1e-9);
}

TEST(DiffSeveralConfigsTest, GapsWithinNoiseAreNotAttributed) {
  // 4.9% and 4.9% slower: under kMeaningfulGap everywhere.
  json a = ReportOf({ConfigOf("WAL", 1, 100'000, 0), ConfigOf("DELETE", 2, 100'000, 0)});
  json b = ReportOf({ConfigOf("WAL", 1, 104'900, 0), ConfigOf("DELETE", 2, 104'900, 0)});
  Diff d = DiffReports(a, b, "a.json", "b.json");
  EXPECT_EQ(d.configs.size(), 2u);
  EXPECT_EQ(d.verdict.factor, "configuration");
  EXPECT_NE(d.verdict.message.find("agree within 5%"), std::string::npos) << d.verdict.message;
  // Just past the threshold in one configuration: that one is attributed.
  json b2 = ReportOf({ConfigOf("WAL", 1, 104'900, 0), ConfigOf("DELETE", 2, 105'100, 0)});
  Diff d2 = DiffReports(a, b2, "a.json", "b.json");
  EXPECT_EQ(d2.verdict.factor, "sync_latency");
  EXPECT_EQ(d2.verdict.message.rfind("DELETE FULL", 0), 0u) << d2.verdict.message;
}

TEST(DiffSeveralConfigsTest, OnlyConfigurationsOnBothSidesAreCompared) {
  json a = ReportOf({ConfigOf("WAL", 1, 100'000, 0), ConfigOf("DELETE", 2, 100'000, 0)});
  json only_wal = ReportOf({ConfigOf("WAL", 1, 300'000, 0)});
  only_wal["targets"][0]["sqlite"].push_back(ConfigOf("TRUNCATE", 2, 100'000, 0));
  json batched = ConfigOf("DELETE", 2, 100'000, 0);
  batched["rows_per_commit"] = 100;  // another configuration, not DELETE FULL with 1 row
  only_wal["targets"][0]["sqlite"].push_back(batched);
  Diff d = DiffReports(a, only_wal, "a.json", "b.json");
  ASSERT_EQ(d.configs.size(), 1u);
  EXPECT_EQ(d.configs[0].journal_mode, "WAL");
}

}  // namespace
}  // namespace durprobe::report

namespace durprobe::report {
namespace {

// Found by the fuzzer (tests/fixtures/fuzz/report_json/crash-number-overflow.json): a number
// beyond a double threw out_of_range past ParseJsonText and aborted `durprobe diff`.
TEST(ParseJsonTextTest, NumberTooLargeIsAnError) {
  for (const char* text : {"{\"x\": 1e999}", "[-0.92307e923]"}) {
    Result<nlohmann::json> doc = ParseJsonText(text);
    ASSERT_FALSE(doc.ok()) << text;
    EXPECT_EQ(doc.status().message(), "not valid JSON: a number too large to represent");
  }
}

}  // namespace
}  // namespace durprobe::report
