// context.cpu_quota and probes[].cpu, written and read back byte for byte; absent where no cgroup
// CPU controller was seen, so reports from before them read back unchanged.
#include <gtest/gtest.h>

#include <sstream>

#include "analysis/durability_model.h"
#include "codec/json_reader.h"
#include "codec/report_json.h"

namespace durprobe::codec {
namespace cpu_json_test {

std::string WriteReport(const model::Report& r) {
  std::ostringstream out;
  WriteJson(r, out);
  return out.str();
}

model::Report Sample(bool quota) {
  model::Report report;
  if (quota) {
    report.context.cpu_quota.version = "v1";
    report.context.cpu_quota.cgroup = "/sys/fs/cgroup/cpu,cpuacct/libpod_parent/libpod-5d2a";
    report.context.cpu_quota.quota_us = 50000;
    report.context.cpu_quota.period_us = 100000;
  }
  model::Target t;
  t.path = "/data";
  probes::ProbeResult r;
  r.spec = {probes::Primitive::kFdatasync, probes::Pattern::kPreallocated, 2300};
  r.spec.paced_per_sec = 150;
  r.ops = 300;
  r.ops_per_sec = 150;
  if (quota) {
    r.cpu.quota_cpus = 0.5;
    r.cpu.spun_ns = 400'000'000;
    r.cpu.slept_ns = 1'600'000'000;
    r.cpu.counted = true;
    r.cpu.throttling = {21, 3, 48'000'000};
  }
  t.probes = {r};
  t.durability = analysis::DurabilityOf(t, report.context);
  report.targets = {t};
  return report;
}

TEST(CpuJsonTest, TheQuotaAndAProbesThrottlingRoundTrip) {
  std::string written = WriteReport(Sample(true));
  nlohmann::json j = nlohmann::json::parse(written);
  const nlohmann::json& q = j["context"]["cpu_quota"];
  EXPECT_EQ(q["cgroup"], "v1");
  EXPECT_EQ(q["quota_us"], 50000);
  EXPECT_EQ(q["period_us"], 100000);
  EXPECT_EQ(q["cpus"], 0.5);
  EXPECT_EQ(q["path"], "/sys/fs/cgroup/cpu,cpuacct/libpod_parent/libpod-5d2a");
  const nlohmann::json& cpu = j["targets"][0]["probes"][0]["cpu"];
  EXPECT_EQ(cpu["wait"], "sleep_then_spin");
  EXPECT_EQ(cpu["throttling"]["throttled_periods"], 3);
  EXPECT_EQ(cpu["throttling"]["throttled_ns"], 48'000'000);
  Result<model::Report> read = FromJson(written);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(WriteReport(*read), written);
  EXPECT_TRUE(read->targets[0].probes[0].cpu.throttled());
  EXPECT_DOUBLE_EQ(read->context.cpu_quota.cpus(), 0.5);
}

TEST(CpuJsonTest, AnUnlimitedCgroupSaysSoAndNoCgroupWritesNothing) {
  model::Report report = Sample(false);
  std::string plain = WriteReport(report);
  nlohmann::json j = nlohmann::json::parse(plain);
  EXPECT_FALSE(j["context"].contains("cpu_quota"));
  EXPECT_FALSE(j["targets"][0]["probes"][0].contains("cpu"));
  report.context.cpu_quota.version = "v2";
  report.context.cpu_quota.cgroup = "/sys/fs/cgroup";
  report.context.cpu_quota.period_us = 100000;
  std::string unlimited = WriteReport(report);
  j = nlohmann::json::parse(unlimited);
  EXPECT_TRUE(j["context"]["cpu_quota"]["quota_us"].is_null());
  EXPECT_TRUE(j["context"]["cpu_quota"]["cpus"].is_null());
  Result<model::Report> read = FromJson(unlimited);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_FALSE(read->context.cpu_quota.limited());
  EXPECT_EQ(WriteReport(*read), unlimited);
}

}  // namespace cpu_json_test
}  // namespace durprobe::codec
