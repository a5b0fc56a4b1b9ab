// Output tests: the JSON keys and types are a contract; a change must show up here.
#include "codec/report_json.h"

#include <gtest/gtest.h>

#include <sstream>

#include "render/console/console_reporter.h"
#include "render/json/json_reporter.h"
#include "tests/report_samples.h"

namespace durprobe::codec {
namespace {

using testing_support::SampleProbe;
using testing_support::SampleReport;
using testing_support::UnsupportedProbe;

TEST(JsonReporterTest, CarriesTheContractKeysWithTheirTypes) {
  nlohmann::json j = ToJson(SampleReport());
  EXPECT_EQ(j["schema"], "durprobe.report/1");
  for (const char* key :
       {"durprobe_version", "host", "os", "kernel", "sqlite_version", "build_type", "started_at"}) {
    ASSERT_TRUE(j["context"].contains(key)) << key;
    EXPECT_TRUE(j["context"][key].is_string()) << key;
  }
  const nlohmann::json& t = j["targets"][0];
  EXPECT_EQ(t["path"], "/data");
  const nlohmann::json& p = t["probes"][0];
  EXPECT_EQ(p["primitive"], "fdatasync");
  EXPECT_EQ(p["pattern"], "append");
  EXPECT_EQ(p["write_size"], 4096);
  EXPECT_EQ(p["status"], "ok");
  EXPECT_TRUE(p["ops"].is_number_unsigned());
  EXPECT_TRUE(p["ops_per_sec"].is_number());
  for (const char* key : {"min", "p50", "p90", "p99", "p999", "max", "mean"}) {
    ASSERT_TRUE(p["latency_ns"].contains(key)) << key;
    EXPECT_TRUE(p["latency_ns"][key].is_number()) << key;
  }
  EXPECT_EQ(p["latency_ns"]["p50"], 400000);
  EXPECT_EQ(p["sync_latency_ns"]["p50"], 380000);
  EXPECT_EQ(t["findings"][0]["severity"], "warn");
  EXPECT_EQ(t["findings"][0]["code"], "example_code");
}

TEST(JsonReporterTest, UnsupportedProbeSaysWhyAndHasNoNumbers) {
  nlohmann::json p = ToJson(UnsupportedProbe());
  EXPECT_EQ(p["status"], "unsupported");
  EXPECT_EQ(p["reason"], "F_FULLFSYNC is macOS only");
  EXPECT_FALSE(p.contains("ops"));
  EXPECT_FALSE(p.contains("latency_ns"));
}

TEST(JsonReporterTest, UnoptimisedBuildIsFlagged) {
  model::Report report = SampleReport();
  report.context.optimized = false;
  report.context.build_type = "Debug";
  nlohmann::json j = ToJson(report);
  ASSERT_TRUE(j["context"].contains("build_warnings"));
  EXPECT_NE(j["context"]["build_warnings"][0].get<std::string>().find("unoptimised"),
            std::string::npos);
  std::ostringstream text;
  render::console::PrintReport(report, text);
  EXPECT_EQ(text.str().rfind("warning: this durprobe build is unoptimised", 0), 0u);
}

TEST(JsonReporterTest, PercentilesTooFewOperationsSupportAreNull) {
  probes::ProbeResult r = SampleProbe();
  r.ops = 150;
  r.latency.count = 150;
  nlohmann::json p = ToJson(r);
  EXPECT_EQ(p["ops"], 150);
  EXPECT_EQ(p["latency_ns"]["p90"], 450000);
  EXPECT_EQ(p["latency_ns"]["p99"], 900000);
  EXPECT_TRUE(p["latency_ns"]["p999"].is_null()) << "not a copy of max";
  EXPECT_EQ(p["latency_ns"]["max"], 2000000);
  EXPECT_TRUE(p["sync_latency_ns"]["p999"].is_number()) << "its own count: 1234";
}

TEST(JsonReporterTest, APathThatIsNotUtf8KeepsItsBytesBeside) {
  model::Report report = SampleReport();
  model::Target& t = report.targets[0];
  t.path = "/data/\xff";
  platform::MountInfo m;
  m.fstype = "ext4";
  m.mount_point = "/data/\xff";
  m.source = "/dev/vda";
  m.root = "/";
  t.mount = m;
  t.findings.push_back({model::Severity::kInfo, "example", "quotes /data/\xff"});
  report.context.ld_preload = "/lib/\xfe.so";
  nlohmann::json j = ToJson(report);
  std::string text;
  ASSERT_NO_THROW(text = j.dump());
  const nlohmann::json& jt = j["targets"][0];
  EXPECT_EQ(jt["path"], "/data/\xef\xbf\xbd");
  EXPECT_EQ(jt["path_bytes"], "2f646174612fff");
  EXPECT_EQ(jt["mount"]["mount_point_bytes"], "2f646174612fff");
  EXPECT_FALSE(jt["mount"].contains("source_bytes"));
  EXPECT_EQ(jt["findings"][1]["message"], "quotes /data/\xef\xbf\xbd");
  EXPECT_EQ(j["context"]["ld_preload_bytes"], "2f6c69622ffe2e736f");
  std::ostringstream out;
  EXPECT_TRUE(render::json::JsonReporter().Write(report, out).ok());
  EXPECT_EQ(nlohmann::json::parse(out.str())["targets"][0]["path_bytes"], "2f646174612fff");
}

}  // namespace
}  // namespace durprobe::codec
