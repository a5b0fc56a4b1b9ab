// Output tests: the JSON keys and types are a contract, and the console table's text is a
// decision; a change to either must show up here.
#include <gtest/gtest.h>

#include <sstream>

#include "report/console_reporter.h"
#include "report/json_reporter.h"

namespace durprobe::report {
namespace {

probes::ProbeResult SampleProbe() {
  probes::ProbeResult r;
  r.spec = {probes::Primitive::kFdatasync, probes::Pattern::kAppend, 4096};
  r.ops = 1234;
  r.warmup_ops = 5;
  r.seconds = 0.5;
  r.ops_per_sec = 2468;
  r.converged = true;
  r.latency = {.count = 1234, .min = 300000, .p50 = 400000, .p90 = 450000, .p99 = 900000,
               .p999 = 1500000, .max = 2000000, .mean = 410000.5, .p50_ci_low = 395000,
               .p50_ci_high = 405000, .p50_ci_relative = 0.0125};
  r.has_sync_part = true;
  r.sync_latency = r.latency;
  r.sync_latency.p50 = 380000;
  return r;
}

probes::ProbeResult UnsupportedProbe() {
  probes::ProbeResult r;
  r.spec = {probes::Primitive::kFullFsync, probes::Pattern::kOverwrite, 4096};
  r.outcome = probes::Outcome::kUnsupported;
  r.reason = "F_FULLFSYNC is macOS only";
  return r;
}

Report SampleReport() {
  Report report;
  report.context = {.durprobe_version = "0.1.0", .host = "h", .os = "Linux", .kernel = "6.1",
                    .machine = "x86_64", .sqlite_version = "3.40.1", .build_type = "Release",
                    .optimized = true, .assertions = false, .started_at = "2026-11-30T00:00:00Z",
                    .command = "probe"};
  Target t;
  t.path = "/data";
  t.probes = {SampleProbe(), UnsupportedProbe()};
  t.findings = {{Severity::kWarn, "example_code", "An example."}};
  report.targets.push_back(t);
  return report;
}

TEST(JsonReporterTest, CarriesTheContractKeysWithTheirTypes) {
  nlohmann::json j = ToJson(SampleReport());
  EXPECT_EQ(j["schema"], "durprobe.report/1");
  for (const char* key : {"durprobe_version", "host", "os", "kernel", "sqlite_version",
                          "build_type", "started_at"}) {
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
  Report report = SampleReport();
  report.context.optimized = false;
  report.context.build_type = "Debug";
  nlohmann::json j = ToJson(report);
  ASSERT_TRUE(j["context"].contains("build_warnings"));
  EXPECT_NE(j["context"]["build_warnings"][0].get<std::string>().find("unoptimised"),
            std::string::npos);
  std::ostringstream text;
  PrintReport(report, text);
  EXPECT_EQ(text.str().rfind("warning: this durprobe build is unoptimised", 0), 0u);
}

TEST(ConsoleReporterTest, ProbeTableText) {
  std::ostringstream out;
  PrintProbeTable({SampleProbe(), UnsupportedProbe()}, out);
  const char* expected =
      "primitive       pattern              size     ops     ops/s   p50 (95% CI)       p90       "
      "p99     p99.9       max   sync p50\n"
      "fdatasync       append              4 KiB    1234     2,468     400 us ±1%    450 us    "
      "900 us   1.50 ms   2.00 ms     380 us\n"
      "full_fsync      overwrite           4 KiB unsupported: F_FULLFSYNC is macOS only\n";
  EXPECT_EQ(out.str(), expected);
}

}  // namespace
}  // namespace durprobe::report
