// probes[].repeats and sqlite[].repeats (--repeat): a short repeated run written, read back and
// written again gives the same bytes and the same spreads; a figure no repeat measured is null;
// a report without repeats has no "repeats" key.
#include "codec/repeats_json.h"

#include <gtest/gtest.h>

#include "codec/json_reader.h"
#include "codec/report_json.h"
#include "run/executor.h"
#include "tests/report_samples.h"
#include "tests/test_dirs.h"

namespace durprobe::codec {
namespace {

run::Plan RepeatedPlan(const std::string& path) {
  run::Plan plan;
  plan.command = "run";
  plan.paths = {path};
  plan.repeats = 2;
  plan.run_probes = true;
  plan.probes.specs = {{probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096},
                       {probes::Primitive::kNone, probes::Pattern::kOverwrite, 4096}};
  plan.probes.rule.warmup_ops = 0;
  plan.probes.rule.min_ops = 10;
  plan.probes.rule.max_ops = 20;
  plan.probes.rule.max_ns = 100'000'000;
  plan.probes.op_options.file_size = 1 << 20;
  plan.run_sqlite = true;
  plan.sqlite.configs = {{sqlite_bench::JournalMode::kWal, sqlite_bench::Synchronous::kFull}};
  plan.sqlite.options.repetitions = 2;
  plan.sqlite.options.fixed_commits = 5;
  plan.sqlite.options.warmup_commits = 0;
  plan.sqlite.options.device_warmup_ns = 0;
  return plan;
}

TEST(RepeatsJsonTest, ARepeatedRunRoundTrips) {
  testing_support::TempDir dir;
  run::Execution ex = run::Execute(platform::Default(), RepeatedPlan(dir.path()));
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const model::Target& ran = ex.report.targets.at(0);
  ASSERT_EQ(ran.probe_repeats.size(), 2u);
  ASSERT_EQ(ran.sqlite.size(), 1u);
  ASSERT_TRUE(ran.sqlite[0].repeats.has_value());

  std::string written = DumpJson(ToJson(ex.report));
  nlohmann::json j = nlohmann::json::parse(written);
  const nlohmann::json& probe = j["targets"][0]["probes"][0];
  EXPECT_EQ(probe["repeats"]["p50_ns"]["n"], 2);
  EXPECT_TRUE(probe["repeats"]["p99_ns"].is_null());  // 20 operations a repeat: no p99
  EXPECT_EQ(probe["repeats"]["ops_per_sec"]["n"], 2);
  EXPECT_EQ(j["targets"][0]["sqlite"][0]["repeats"]["commits_per_sec"]["n"], 2);

  Result<model::Report> read = FromJson(written);
  ASSERT_TRUE(read.ok()) << read.status().message();
  const model::Target& back = read->targets.at(0);
  EXPECT_EQ(back.probe_repeats, ran.probe_repeats);
  ASSERT_EQ(back.sqlite.size(), 1u);
  EXPECT_EQ(back.sqlite[0].repeats, ran.sqlite[0].repeats);
  EXPECT_EQ(DumpJson(ToJson(*read)), written);
}

TEST(RepeatsJsonTest, AReportWithoutRepeatsHasNoRepeatsKey) {
  std::string written = DumpJson(ToJson(testing_support::SampleReport()));
  EXPECT_EQ(written.find("\"repeats\""), std::string::npos);
  Result<model::Report> read = FromJson(written);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_TRUE(read->targets.at(0).probe_repeats.empty());
}

TEST(RepeatsJsonTest, SpreadsAreWrittenAndReadByKey) {
  model::SqliteRepeats r{.commits_per_sec = model::SpreadOf({300.0, 280.5, 336.0}),
                         .p50_ns = {3.1e6, 2.9e6, 3.4e6, 4, 2.5e6, 3.9e6},
                         .p99_ns = {}};
  nlohmann::json j = ToJson(r);
  EXPECT_EQ(j["commits_per_sec"]["median"], 300.0);
  EXPECT_EQ(j["commits_per_sec"]["min"], 280.5);
  EXPECT_EQ(j["commits_per_sec"]["max"], 336.0);
  EXPECT_EQ(j["commits_per_sec"]["n"], 3);
  EXPECT_EQ(j["commits_per_sec"]["next_run"]["low"], r.commits_per_sec.next_low);
  EXPECT_EQ(j["commits_per_sec"]["next_run"]["high"], r.commits_per_sec.next_high);
  EXPECT_EQ(j["p50_ns"]["next_run"]["low"], 2.5e6);
  EXPECT_TRUE(j["p99_ns"].is_null());
  std::string error;
  JsonFields f(&j, "repeats", &error);
  EXPECT_EQ(ReadSqliteRepeats(f), r);
  EXPECT_TRUE(error.empty()) << error;
}

TEST(RepeatsJsonTest, AnOlderReportGetsTheNextRunFromItsValuesWhereTheyAreAllThere) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "commits_per_sec": {"median": 300.0, "min": 280.5, "max": 336.0, "n": 3},
    "p50_ns": {"median": 3.1e6, "min": 2.9e6, "max": 3.4e6, "n": 4},
    "p99_ns": {"median": 4.0e6, "min": 1.0e6, "max": 7.0e6, "n": 2}})");
  std::string error;
  JsonFields f(&j, "repeats", &error);
  model::SqliteRepeats r = ReadSqliteRepeats(f);
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_EQ(r.commits_per_sec, model::SpreadOf({280.5, 300.0, 336.0}));  // n 3: min, median, max
  EXPECT_FALSE(Predicted(r.p50_ns));  // n 4: the two middle values are not in the report
  EXPECT_EQ(r.p50_ns, (model::RepeatSpread{3.1e6, 2.9e6, 3.4e6, 4}));
  EXPECT_FALSE(Predicted(r.p99_ns));  // sevenfold apart
}

}  // namespace
}  // namespace durprobe::codec
