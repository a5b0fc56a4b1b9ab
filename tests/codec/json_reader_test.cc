// The typed reader: write, read, write again gives the same bytes (a real quick run and the diff
// fixtures); errors name what is wrong in one line; older reports read with defaults; nulls
// and unknown keys from newer writers are accepted.
#include "codec/json_reader.h"

#include <gtest/gtest.h>

#include <sstream>

#include "analysis/durability_model.h"
#include "codec/report_json.h"
#include "platform/platform.h"
#include "run/executor.h"
#include "tests/fixtures.h"
#include "tests/test_dirs.h"

namespace durprobe::codec {
namespace {

using nlohmann::json;

std::string Write(const model::Report& report) {
  std::ostringstream out;
  WriteJson(report, out);
  return out.str();
}

// Reads text, writes it, reads that and writes again: the two writes must be identical.
void ExpectRoundTrip(const std::string& text, const std::string& what) {
  Result<model::Report> first = FromJson(text);
  ASSERT_TRUE(first.ok()) << what << ": " << first.status().message();
  std::string written = Write(*first);
  Result<model::Report> second = FromJson(written);
  ASSERT_TRUE(second.ok()) << what << ": " << second.status().message();
  EXPECT_EQ(Write(*second), written) << what;
}

// A small real run: inspect, two probes, two SQLite configurations, every workload, kept short.
run::Plan QuickPlan(const std::string& path) {
  run::Plan plan;
  plan.command = "run";
  plan.paths = {path};
  plan.run_inspect = true;
  plan.run_probes = true;
  plan.probes.specs = {{probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096},
                       {probes::Primitive::kFdatasync, probes::Pattern::kAppend, 4096},
                       {probes::Primitive::kDirFsync, probes::Pattern::kCreate, 0}};
  plan.probes.rule.min_ops = 20;
  plan.probes.rule.min_ns = 10'000'000;
  plan.probes.rule.max_ns = 100'000'000;
  plan.probes.rule.max_ops = 50;
  plan.run_sqlite = true;
  sqlite_bench::CommitConfig wal{sqlite_bench::JournalMode::kWal, sqlite_bench::Synchronous::kFull};
  sqlite_bench::CommitConfig del{sqlite_bench::JournalMode::kDelete,
                                 sqlite_bench::Synchronous::kFull};
  plan.sqlite.configs = {wal, del};
  plan.sqlite.options.repetitions = 2;
  plan.sqlite.options.fixed_commits = 15;
  plan.sqlite.options.warmup_commits = 3;
  plan.run_workloads = true;
  plan.workloads.workloads = sqlite_bench::AllWorkloads();
  sqlite_bench::WorkloadOptions& w = plan.workloads.options;
  w.budget_ns = 2'000'000'000;
  w.kv_rows = 500;
  w.max_queries = 200;
  w.threads = 2;
  w.processes = 2;
  w.ops_per_worker = 10;
  w.wal_rounds = 2;
  w.wal_commits_per_round = 5;
  w.wal_rows_per_commit = 5;
  return plan;
}

TEST(JsonReaderTest, RealRunRoundTripsByteForByte) {
  testing_support::TempDir dir;
  run::Execution ex = run::Execute(platform::Default(), QuickPlan(dir.path()));
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  ASSERT_EQ(ex.report.targets.size(), 1u);
  const model::Target& measured = ex.report.targets[0];
  ASSERT_FALSE(measured.sqlite.empty());
  ASSERT_FALSE(measured.sqlite_workloads.empty());
  std::string written = Write(ex.report);
  Result<model::Report> read = FromJson(written);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(Write(*read), written);
  // The model, not only the text: counts come back from the per-commit figures.
  const model::Target& t = read->targets[0];
  ASSERT_EQ(t.sqlite.size(), measured.sqlite.size());
  EXPECT_FALSE(t.sqlite[0].saved.has_value());
  EXPECT_EQ(t.sqlite[0].result.commits, measured.sqlite[0].result.commits);
  EXPECT_EQ(t.sqlite[0].result.commit_counts.sync_calls(),
            measured.sqlite[0].result.commit_counts.sync_calls());
  EXPECT_EQ(t.sqlite[0].result.timed_ns, measured.sqlite[0].result.timed_ns);
  EXPECT_EQ(t.probes.size(), measured.probes.size());
  EXPECT_EQ(t.sqlite_workloads.concurrency.size(), measured.sqlite_workloads.concurrency.size());
  ASSERT_TRUE(t.mount.has_value());
  EXPECT_EQ(t.mount->fstype, measured.mount->fstype);
  EXPECT_EQ(t.findings.size(), measured.findings.size());
}

TEST(JsonReaderTest, DiffFixturesRoundTrip) {
  for (const char* name : {"a.json", "b_no_common.json", "b_non_sync.json", "b_sync_count.json",
                           "b_sync_latency.json"}) {
    ExpectRoundTrip(testing_support::ReadFixture(std::string("diff/") + name), name);
  }
}

TEST(JsonReaderTest, OlderReportKeepsTheContractFigures) {
  Result<model::Report> r = FromJson(testing_support::ReadFixture("diff/a.json"));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->context.sqlite_version, "3.40.1");
  EXPECT_TRUE(r->context.optimized);  // absent: the default
  const model::Target& t = r->targets[0];
  ASSERT_TRUE(t.mount && t.mount->device);
  EXPECT_EQ(t.mount->device->write_cache, "write through");
  EXPECT_EQ(t.mount->device->rotational, std::optional<bool>(false));
  ASSERT_EQ(t.sqlite.size(), 2u);
  const model::SqliteEntry& del = t.sqlite[1];
  EXPECT_EQ(del.result.config.journal, sqlite_bench::JournalMode::kDelete);
  EXPECT_DOUBLE_EQ(del.result.commits_per_sec, 1016.260163);
  EXPECT_EQ(del.result.latency.p99, 1476000u);
  ASSERT_TRUE(del.saved.has_value());  // no counts in the file: the figures are kept
  EXPECT_DOUBLE_EQ(del.saved->syncs.total, 4.0);
  EXPECT_DOUBLE_EQ(del.saved->syncs.journal, 2.0);
  EXPECT_DOUBLE_EQ(del.saved->sync_time_share, 0.87804878);
  EXPECT_TRUE(del.correlation.available);
  EXPECT_DOUBLE_EQ(del.correlation.predicted_ns, 984000);
  // Written again, it claims no counts it never had.
  json again = json::parse(Write(*r));
  EXPECT_FALSE(again["targets"][0]["sqlite"][1].contains("commits"));
  EXPECT_EQ(again["targets"][0]["sqlite"][1]["syncs_per_commit"]["total"], 4.0);
}

TEST(JsonReaderTest, NullLatenciesAndUnknownKeysAreAccepted) {
  json doc = json::parse(testing_support::ReadFixture("diff/a.json"));
  doc["targets"][0]["sqlite"][0]["latency_ns"]["p99"] = nullptr;
  doc["targets"][0]["sqlite"][0]["some_future_key"] = {{"x", 1}};
  doc["targets"][0]["path_bytes"] = "2f746d702fff";
  doc["context"]["options"] = {{"quick", true}};
  doc["targets"][0]["probes"] = json::array({{{"primitive", "fdatasync"},
                                              {"write_size", 4096},
                                              {"pattern", "overwrite"},
                                              {"ops", 40},
                                              {"ops_per_sec", 1000.0},
                                              {"latency_ns",
                                               {{"min", 1},
                                                {"p50", 2},
                                                {"p90", 3},
                                                {"p99", nullptr},
                                                {"p999", nullptr},
                                                {"max", 9},
                                                {"mean", 2.5}}}}});
  Result<model::Report> r = FromJson(doc);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->targets[0].sqlite[0].result.latency.p99, 0u);
  EXPECT_EQ(r->targets[0].sqlite[0].result.latency.p50, 270000u);
  EXPECT_EQ(r->targets[0].probes[0].latency.p999, 0u);
  EXPECT_EQ(r->targets[0].probes[0].latency.max, 9u);
  // How the report was made is kept as written, and written back.
  EXPECT_EQ(r->context.options, json({{"quick", true}}));
  EXPECT_EQ(json::parse(Write(*r))["context"]["options"]["quick"], true);
}

std::string ErrorOf(const json& doc) {
  Result<model::Report> r = FromJson(doc);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.status().message();
}

TEST(JsonReaderTest, ErrorsNameThePathInOneLine) {
  json doc = json::parse(testing_support::ReadFixture("diff/a.json"));
  json missing = doc;
  missing["targets"][0]["sqlite"][1].erase("commits_per_sec");
  EXPECT_EQ(ErrorOf(missing), "targets[0].sqlite[1].commits_per_sec: missing required key");
  json wrong_type = doc;
  wrong_type["targets"][0]["mount"]["bind"] = "no";
  EXPECT_EQ(ErrorOf(wrong_type), "targets[0].mount.bind: expected true or false, got string");
  json bad_name = doc;
  bad_name["targets"][0]["sqlite"][0]["journal_mode"] = "JOURNAL";
  EXPECT_EQ(ErrorOf(bad_name), "targets[0].sqlite[0].journal_mode: 'JOURNAL' is not a known value");
  json no_context = doc;
  no_context.erase("context");
  EXPECT_EQ(ErrorOf(no_context), "context: missing required key");
  json bad_option = doc;
  bad_option["targets"][0]["mount"]["options"][1] = 7;
  EXPECT_EQ(ErrorOf(bad_option), "targets[0].mount.options[1]: expected a string, got number");
  for (const json& d : {missing, wrong_type, bad_name, no_context, bad_option}) {
    EXPECT_EQ(ErrorOf(d).find('\n'), std::string::npos);
  }
}

TEST(JsonReaderTest, TextErrorsSayWhere) {
  EXPECT_NE(
      FromJson(std::string("{\"schema\": \"durprobe.re")).status().message().find("ends early"),
      std::string::npos);
  EXPECT_NE(FromJson(std::string("{\"a\": nope}")).status().message().find("syntax error at byte "),
            std::string::npos);
  EXPECT_EQ(FromJson(std::string("{\"schema\": \"durprobe.compare/1\"}")).status().message(),
            "schema is 'durprobe.compare/1', expected durprobe.report/1");
}

TEST(ValidateReportTest, SchemaAndTargetsAreChecked) {
  EXPECT_FALSE(ValidateReport(json::array()).ok());
  EXPECT_NE(ValidateReport({{"schema", "durprobe.compare/1"}}).message().find("durprobe.compare/1"),
            std::string::npos);
  EXPECT_NE(ValidateReport({{"schema", model::kReportSchema}, {"targets", json::array()}})
                .message()
                .find("no targets"),
            std::string::npos);
  EXPECT_TRUE(
      ValidateReport({{"schema", model::kReportSchema}, {"targets", json::array({json::object()})}})
          .ok());
}

TEST(ParseJsonTextTest, MalformedAndTruncatedTextSayWhich) {
  EXPECT_NE(ParseJsonText("{\"schema\": \"durprobe.re").status().message().find("ends early"),
            std::string::npos);
  EXPECT_NE(ParseJsonText("{\"a\": nope}").status().message().find("syntax error at byte"),
            std::string::npos);
  EXPECT_TRUE(ParseJsonText("{}").ok());
}

// What a quick run on a temp dir does not produce: op costs (compare), an overlay, a device with
// members, a statfs magic.
// A report saved before durprobe wrote targets[].durability gets the verdict worked out from
// what it holds when read, so every consumer of a saved report has one.
TEST(JsonReaderTest, AReportWithoutAVerdictGetsOneWorkedOutOnReading) {
  model::Report report;
  model::Target t;
  t.path = "/ram";
  platform::MountInfo m;
  m.fstype = "tmpfs";
  m.source = "tmpfs";
  m.mount_point = "/ram";
  t.mount = m;
  report.targets = {t};
  nlohmann::json doc = ToJson(report);
  ASSERT_FALSE(doc["targets"][0].contains("durability"));
  Result<model::Report> read = FromJson(doc);
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_TRUE(read->targets[0].durability.has_value());
  EXPECT_EQ(read->targets[0].durability->verdict, model::DurabilityVerdict::kNotDurable);
  EXPECT_EQ(read->targets[0].durability->findings, std::vector<std::string>{"sync_noop_memory_fs"});
}

TEST(JsonReaderTest, RareSectionsRoundTrip) {
  model::Report report;
  report.context.durprobe_version = "0.1.0";
  report.context.ld_preload = "libeatmydata.so";
  model::Target t;
  t.path = "/data";
  platform::MountInfo m;
  m.fstype = "overlay";
  m.source = "overlay";
  m.mount_point = "/";
  m.options = {"rw", "lowerdir=/l"};
  m.dev_major = 0;
  m.dev_minor = 52;
  m.statfs_known = true;
  m.statfs_magic = 0x794c7630;
  m.statfs_type = "overlay";
  m.statfs_agrees = true;
  m.overlay =
      platform::OverlayInfo{{"/l1", "/l2"}, "/u", "/w", true, true, "ext4", "/", "/dev/vda"};
  platform::DeviceInfo member;
  member.name = "sda";
  member.major = 8;
  platform::DeviceInfo dm;
  dm.name = "dm-0";
  dm.major = 253;
  dm.rotational = false;
  dm.fua = true;
  dm.slaves = {member};
  m.device = dm;
  m.container.in_container = true;
  m.container.evidence = {"/.dockerenv exists"};
  t.mount = m;
  probes::OpCostResult cost;
  cost.op = probes::FileOp::kRename;
  cost.size = 0;
  cost.ops = 100;
  cost.ops_per_sec = 5e4;
  cost.latency.p50 = 20'000;
  t.op_costs = {cost};
  probes::ProbeResult paced;  // the etcd preset's WAL probe
  paced.spec = {.primitive = probes::Primitive::kFdatasync,
                .pattern = probes::Pattern::kPreallocated,
                .write_size = 1392,
                .paced_per_sec = 150};
  paced.ops = 150;
  probes::ProbeResult worked;  // the postgres-wal preset's one-client commit
  worked.spec = {.primitive = probes::Primitive::kFdatasync,
                 .write_size = 8192,
                 .work_us = 200,
                 .work_round_trips = 4};
  worked.ops = 40;
  t.probes = {paced, worked};
  t.unfinished = {
      {model::UnfinishedKind::kProbe, "fsync append 4 KiB", model::Unfinished::kBudget}};
  t.findings = {{model::Severity::kWarn, "overlay_volatile", "the overlay skips every sync"}};
  model::PowercutEvidence cut;  // targets[].powercut (--evidence)
  cut.run_id = "0123456789abcdef";
  cut.fstype = "overlay";
  cut.device_serial = "SN-9";
  cut.acknowledged = cut.missing = 12;
  cut.file_missing = true;
  cut.verdict = model::PowercutVerdict::kFailed;
  t.powercut = cut;
  t.durability = analysis::DurabilityOf(t, report.context);  // as the run decides it before writing
  report.targets = {t};
  std::string written = Write(report);
  Result<model::Report> read = FromJson(written);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(Write(*read), written);
  EXPECT_EQ(read->targets[0].mount->statfs_magic, 0x794c7630u);
  EXPECT_EQ(read->targets[0].mount->device->slaves.at(0).name, "sda");
  EXPECT_EQ(read->targets[0].op_costs.at(0).op, probes::FileOp::kRename);
  EXPECT_EQ(read->targets[0].probes.at(0).spec, paced.spec);
  EXPECT_EQ(read->targets[0].probes.at(1).spec, worked.spec);
  EXPECT_NE(written.find("\"work_us\": 200"), std::string::npos);
  EXPECT_EQ(NameOf(read->targets[0].unfinished.at(0).reason), "budget");
  EXPECT_EQ(read->targets[0].findings.at(0).severity, model::Severity::kWarn);
  ASSERT_TRUE(read->targets[0].durability.has_value());
  EXPECT_EQ(read->targets[0].durability->verdict, model::DurabilityVerdict::kNotDurable);
  EXPECT_EQ(read->targets[0].durability->layers.size(), t.durability->layers.size());
  ASSERT_TRUE(read->targets[0].powercut.has_value());
  EXPECT_EQ(read->targets[0].powercut->device_serial, "SN-9");
  EXPECT_EQ(read->targets[0].powercut->acknowledged, 12u);
  EXPECT_TRUE(read->targets[0].powercut->file_missing);
}

// A probe measured while the device moved (probes[].device_moved) and an unstable check with its
// range (checks[].drift_low, drift_high) and how often it was re-measured (checks[].remeasured)
// come back as they were written.
TEST(JsonReaderTest, DeviceMovedAndUnstableChecksRoundTrip) {
  model::Report report;
  report.context.durprobe_version = "0.1.0";
  model::Target t;
  t.path = "/data";
  probes::ProbeResult p;
  p.spec = {probes::Primitive::kFdatasync, probes::Pattern::kAppend, 4096};
  p.ops = 10;
  p.ops_per_sec = 100;
  t.probes = {p, p};
  t.moved = {{1, 350'000, 700'000, 350'000, 710'000}};
  t.durability = analysis::DurabilityOf(t, report.context);  // as the run decides it before writing
  report.targets = {t};
  model::CheckResult c;
  c.rule = "p99";
  c.path = "/data";
  c.outcome = model::CheckOutcome::kUnstable;
  c.measured = 0.006;
  c.threshold = 0.01;
  c.drift_low = 0.006;
  c.drift_high = 0.012;
  c.remeasured = 2;
  report.checks = {c};
  std::string written = Write(report);
  Result<model::Report> read = FromJson(written);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(Write(*read), written);
  ASSERT_EQ(read->targets[0].moved.size(), 1u);
  EXPECT_EQ(read->targets[0].moved[0].probe, 1u);
  EXPECT_DOUBLE_EQ(read->targets[0].moved[0].high_ns, 710'000);
  ASSERT_EQ(read->checks.size(), 1u);
  EXPECT_EQ(read->checks[0].outcome, model::CheckOutcome::kUnstable);
  EXPECT_DOUBLE_EQ(*read->checks[0].drift_high, 0.012);
  EXPECT_EQ(read->checks[0].remeasured, 2u);
}

}  // namespace
}  // namespace durprobe::codec
