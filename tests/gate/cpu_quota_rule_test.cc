// A timing rule read from a probe the CPU quota throttled: a failure is `unstable` with the
// counts (the CPU limit's, not the disk's), a pass stands, and the probe's `cpu_throttled`
// finding carries the same counts.
#include <gtest/gtest.h>

#include "analysis/probe_findings.h"
#include "gate/rules.h"

namespace durprobe::gate {
namespace cpu_quota_rule_test {

constexpr probes::ProbeSpec kWal{probes::Primitive::kFdatasync, probes::Pattern::kPreallocated,
                                 2300};

probes::ProbeResult Wal(std::uint64_t p99_ns, bool throttled) {
  probes::ProbeResult r;
  r.spec = kWal;
  r.ops = 400;
  r.seconds = 2.0;
  r.ops_per_sec = 150;
  r.has_sync_part = true;
  r.sync_latency = {.count = 400, .p50 = 200'000, .p95 = p99_ns, .p99 = p99_ns, .max = p99_ns};
  r.latency = r.sync_latency;
  r.cpu.quota_cpus = 0.1;
  r.cpu.counted = true;
  if (throttled) r.cpu.throttling = {20, 14, 812'000'000};
  return r;
}

model::Report OneTarget(probes::ProbeResult r) {
  model::Report report;
  model::Target t;
  t.path = "/data";
  t.probes = {std::move(r)};
  report.targets.push_back(t);
  return report;
}

Policy Policy10ms() {
  Policy p;
  p.latency = {{.name = "etcd_wal_fsync_p99", .spec = kWal, .max_ns = 10'000'000}};
  p.rates = {{.name = "wal_rate", .spec = kWal, .min_ops_per_sec = 500}};
  p.slow_syncs = {{.name = "slow", .spec = kWal, .over_ns = 40'000'000, .max_count = 0}};
  return p;
}

TEST(CpuQuotaRuleTest, AFailureMeasuredWhileThrottledIsUnstableWithTheCounts) {
  probes::ProbeResult r = Wal(46'300'000, true);
  r.sync_histogram = {{50'000'000, 5}};
  std::vector<model::CheckResult> checks = EvaluatePolicy(Policy10ms(), OneTarget(r));
  ASSERT_EQ(checks.size(), 3u);
  for (const model::CheckResult& c : checks) {
    EXPECT_EQ(c.outcome, model::CheckOutcome::kUnstable) << c.rule << ": " << c.message;
    EXPECT_NE(c.message.find("14 of 20 periods"), std::string::npos) << c.message;
    EXPECT_NE(c.message.find("812 ms"), std::string::npos) << c.message;
    EXPECT_NE(c.message.find("0.1 CPUs"), std::string::npos) << c.message;
  }
}

TEST(CpuQuotaRuleTest, TheSameFigureWithoutThrottlingStillFails) {
  probes::ProbeResult r = Wal(46'300'000, false);
  r.sync_histogram = {{50'000'000, 5}};
  for (const model::CheckResult& c : EvaluatePolicy(Policy10ms(), OneTarget(r))) {
    EXPECT_EQ(c.outcome, model::CheckOutcome::kFail) << c.rule;
  }
}

TEST(CpuQuotaRuleTest, APassMeasuredWhileThrottledStands) {
  probes::ProbeResult r = Wal(800'000, true);
  r.ops_per_sec = 600;
  for (const model::CheckResult& c : EvaluatePolicy(Policy10ms(), OneTarget(r))) {
    EXPECT_EQ(c.outcome, model::CheckOutcome::kPass) << c.rule << ": " << c.message;
  }
}

TEST(CpuQuotaRuleTest, AThrottledProbeGetsOneFindingWithItsCounts) {
  model::Report report = OneTarget(Wal(46'300'000, true));
  std::vector<model::Finding> f = analysis::CpuThrottledFindings(report.targets[0]);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].code, "cpu_throttled");
  EXPECT_EQ(f[0].severity, model::Severity::kWarn);
  EXPECT_NE(f[0].message.find("14 of 20 periods"), std::string::npos) << f[0].message;
  EXPECT_TRUE(analysis::CpuThrottledFindings(OneTarget(Wal(46'300'000, false)).targets[0]).empty());
}

}  // namespace cpu_quota_rule_test
}  // namespace durprobe::gate
