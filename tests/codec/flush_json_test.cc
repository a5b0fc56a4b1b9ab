// probes[].device_flushes, written and read back byte for byte: the raw counts are kept, the
// figures (per_op, control_per_write, background_per_sec) are derived from them on each write;
// unavailable carries its reason and no figure; a report from before it reads as not counted.
#include <gtest/gtest.h>

#include <sstream>

#include "analysis/durability_model.h"
#include "analysis/sqlite_correlation.h"
#include "codec/json_reader.h"
#include "codec/report_json.h"
#include "tests/sqlite_samples.h"

namespace durprobe::codec {
namespace flush_json_test {

std::string WriteReport(const model::Report& r) {
  std::ostringstream out;
  WriteJson(r, out);
  return out.str();
}

model::Report Sample(probes::FlushTally tally) {
  model::Report report;
  model::Target t;
  t.path = "/data";
  probes::ProbeResult r;
  r.spec = {probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096};
  r.ops = 400;
  r.device_flushes = std::move(tally);
  t.probes = {r};
  t.durability = analysis::DurabilityOf(t, report.context);
  report.targets = {t};
  return report;
}

TEST(FlushJsonTest, CountsRoundTripAndTheFiguresAreDerived) {
  probes::FlushTally t{.counted = true,
                       .how = "the device under the filesystem, down the loop device's chain",
                       .devices = {{"loop0", 402, 400, 0, 2}, {"vda", 404, 420, 1, 2}},
                       .ops = 400,
                       .ns = 1'000'000'000,
                       .control_ops = 400,
                       .control_ns = 31'250'000,
                       .idle_ns = 31'250'000};
  std::string written = WriteReport(Sample(t));
  nlohmann::json j = nlohmann::json::parse(written);
  const nlohmann::json& f = j["targets"][0]["probes"][0]["device_flushes"];
  EXPECT_EQ(f["status"], "ok");
  EXPECT_TRUE(f["reason"].is_null());
  EXPECT_EQ(f["ops"], 400);
  EXPECT_EQ(f["devices"][0]["name"], "loop0");
  EXPECT_EQ(f["devices"][0]["flushes"], 402);
  EXPECT_EQ(f["devices"][1]["control_flushes"], 1);
  // 2 idle flushes in 1/32 s: 64 a second in the background. The control flushed nothing on
  // loop0, so its syncs added 402 / 400; on vda 1 in 1/32 s, 32 a second: (404 - 32) / 400.
  // loop0, counted first and past 0.5, is the device that holds the data.
  EXPECT_DOUBLE_EQ(f["devices"][0]["background_per_sec"].get<double>(), 64.0);
  EXPECT_NEAR(f["devices"][0]["per_op"].get<double>(), 1.005, 0.001);
  EXPECT_NEAR(f["per_op"].get<double>(), 1.005, 0.001) << "the leading device's";
  EXPECT_NEAR(f["devices"][1]["per_op"].get<double>(), 0.93, 0.001);
  // The busiest background: vda's 32 a second over the second, per operation.
  EXPECT_NEAR(f["without_sync_per_op"].get<double>(), 0.08, 0.001);
  Result<model::Report> read = FromJson(written);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->targets[0].probes[0].device_flushes, t);
  EXPECT_EQ(WriteReport(*read), written);
}

TEST(FlushJsonTest, UnavailableSaysWhyAndGivesNoFigure) {
  probes::FlushTally t{.counted = true,
                       .unavailable = "no block device: tmpfs keeps its files in memory"};
  std::string written = WriteReport(Sample(t));
  const nlohmann::json f =
      nlohmann::json::parse(written)["targets"][0]["probes"][0]["device_flushes"];
  EXPECT_EQ(f["status"], "unavailable");
  EXPECT_EQ(f["reason"], t.unavailable);
  EXPECT_TRUE(f["per_op"].is_null()) << "never a zero";
  Result<model::Report> read = FromJson(written);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->targets[0].probes[0].device_flushes, t);
}

TEST(FlushJsonTest, NotCountedWritesNothingAndReadsBackNotCounted) {
  std::string written = WriteReport(Sample({}));
  EXPECT_FALSE(
      nlohmann::json::parse(written)["targets"][0]["probes"][0].contains("device_flushes"));
  Result<model::Report> read = FromJson(written);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_FALSE(read->targets[0].probes[0].device_flushes.counted);
}

TEST(FlushJsonTest, ASqliteRowPredictedPerFlushSaysSoAndReadsBack) {
  auto counted = [](std::uint64_t ops, std::uint64_t flushes) {
    return probes::FlushTally{
        .counted = true, .devices = {{"vda", flushes, ops, 0, 0}}, .ops = ops, .ns = ops * 100'000};
  };
  model::Report report;
  model::Target t;
  t.path = "/data";
  t.probes = testing_support::Probes();
  for (probes::ProbeResult& p : t.probes) p.device_flushes = counted(100, 100);
  sqlite_bench::CommitResult r = testing_support::DeleteFull(100);
  r.device_flushes = counted(100, 200);  // 4 syncs a commit, 2 flushes
  t.durability = analysis::DurabilityOf(t, report.context);
  analysis::AddSqliteResults(t, {r});
  report.targets = {t};
  std::string written = WriteReport(report);
  const nlohmann::json row = nlohmann::json::parse(written)["targets"][0]["sqlite"][0];
  EXPECT_DOUBLE_EQ(row["flushes_per_commit"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(row["probe_flushes_per_commit"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(row["flush_scale"].get<double>(), 0.5);
  Result<model::Report> read = FromJson(written);
  ASSERT_TRUE(read.ok()) << read.status().message();
  const model::SqliteCorrelation& c = read->targets[0].sqlite[0].correlation;
  EXPECT_EQ(c.flushes_per_commit, 2.0);
  EXPECT_EQ(c.probe_flushes_per_commit, 4.0);
  EXPECT_DOUBLE_EQ(c.flush_scale, 0.5);
  EXPECT_EQ(WriteReport(*read), written);
}

}  // namespace flush_json_test
}  // namespace durprobe::codec
