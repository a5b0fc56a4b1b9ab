// targets[].summary and targets[].advice[] (issue 22): the keys written, and a report read back
// and written again byte for byte, unset values as null.
#include "codec/path_summary_json.h"

#include <gtest/gtest.h>

#include "codec/json_reader.h"
#include "codec/report_json.h"

namespace durprobe::codec {
namespace {

model::Report WithSummary(bool full) {
  model::Report r;
  r.context.command = "run";
  model::Target t;
  t.path = "/data";
  // A verdict saved with it: the reader assesses one only for a report saved without.
  t.durability = model::Durability{.verdict = model::DurabilityVerdict::kUnproven,
                                   .deciding_layer = model::LayerKind::kDevice};
  model::PathSummary s;
  s.what = "ext4 on vda (volatile write cache, no FUA)";
  s.durability_line = "durability not assessed";
  s.next_step = "run `durprobe crashsim /data` for what a power cut loses per setting";
  if (full) {
    s.durability = model::DurabilityVerdict::kUnproven;
    s.sync_probe = "fdatasync overwrite 4 KiB";
    s.sync_p50_ns = 49'500;
    s.sync_p99_ns = 8'010'000;
    s.synced_writes_per_sec = 1713;
    s.sqlite_default = model::SummarySetting{"DELETE/FULL x1", 74.9, 1.0,
                                             sqlite_bench::RiskLevel::kNone, "keeps every commit"};
    s.sqlite_fast =
        model::SummarySetting{"WAL/NORMAL x1", 43640, std::nullopt,
                              sqlite_bench::RiskLevel::kRecentCommits, "may lose the last commits"};
    s.findings = {"volatile_write_cache_no_fua"};
  }
  t.summary = s;
  if (full) {
    t.advice = {{"sqlite", "journal_mode=WAL, synchronous=FULL", "the fastest that keeps all",
                 "sqlite WAL/FULL x1: 573 commits/s"},
                {"etcd", "not measured", "no etcd probes", "run `durprobe check --preset etcd`"}};
  }
  r.targets.push_back(t);
  return r;
}

TEST(PathSummaryJsonTest, WritesTheKeysWithNullForWhatIsUnset) {
  nlohmann::json j = ToJson(WithSummary(false))["targets"][0];
  ASSERT_TRUE(j.contains("summary"));
  EXPECT_FALSE(j.contains("advice"));  // none decided
  const nlohmann::json& s = j["summary"];
  EXPECT_TRUE(s["durability"].is_null());
  EXPECT_EQ(s["durability_line"], "durability not assessed");
  EXPECT_TRUE(s["sync"]["probe"].is_null());
  EXPECT_TRUE(s["sync"]["p99_ns"].is_null());
  EXPECT_TRUE(s["sqlite"]["default"].is_null());
  EXPECT_TRUE(s["sqlite"]["keeps_every_commit"].is_null());
  EXPECT_TRUE(s["findings"].empty());
}

TEST(PathSummaryJsonTest, AReportRoundTripsByteForByte) {
  for (bool full : {false, true}) {
    std::string once = DumpJson(ToJson(WithSummary(full)));
    Result<model::Report> read = FromJson(once);
    ASSERT_TRUE(read.ok()) << read.status().message();
    ASSERT_TRUE(read->targets[0].summary);
    EXPECT_EQ(DumpJson(ToJson(*read)), once);
  }
  Result<model::Report> read = FromJson(DumpJson(ToJson(WithSummary(true))));
  ASSERT_TRUE(read.ok());
  const model::Target& t = read->targets[0];
  ASSERT_EQ(t.advice.size(), 2u);
  EXPECT_EQ(t.advice[1].evidence, "run `durprobe check --preset etcd`");
  ASSERT_TRUE(t.summary->sqlite_fast);
  EXPECT_FALSE(t.summary->sqlite_fast->vs_default);
  EXPECT_EQ(t.summary->sync_p99_ns, 8'010'000);
}

TEST(PathSummaryJsonTest, AReportWithoutASummaryReadsAsNone) {
  model::Report r = WithSummary(false);
  r.targets[0].summary.reset();
  Result<model::Report> read = FromJson(DumpJson(ToJson(r)));
  ASSERT_TRUE(read.ok());
  EXPECT_FALSE(read->targets[0].summary);
  EXPECT_TRUE(read->targets[0].advice.empty());
}

}  // namespace
}  // namespace durprobe::codec
