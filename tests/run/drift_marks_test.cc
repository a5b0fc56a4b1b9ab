// Drift in the probe command, made deterministic with the fault platform: a fake clock, and a
// sync latency that goes from 300 us to 1 ms in the middle of the second probe (a device that
// changes state mid-run). The reference probe is sampled before each probe and after the last,
// so the second probe is marked with the levels before and after it (in the model and the JSON),
// latency_drift names it, and a check rule whose limit lies within the drift is unstable.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "analysis/drift.h"
#include "codec/report_json.h"
#include "gate/rules.h"
#include "model/labels.h"
#include "run/executor.h"
#include "run/reference.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"
#include "tests/timed_probes_plan.h"

namespace durprobe::run {
namespace {

using testing_support::TwoTimedProbes;
constexpr probes::ProbeSpec kMarkAppend = testing_support::kTimedAppend;

Execution RunSwitching(platform::FaultPlatform& fake, const std::string& dir, bool switch_mid_run) {
  fake.UseFakeClock();
  fake.AddSyncLatency(300'000);
  // Sample (42), probe 1 (200), sample (42): the 384th sync falls mid-way through probe 2.
  if (switch_mid_run) fake.AddSyncLatencyAfter(700'000, 384);
  return Execute(fake, TwoTimedProbes(dir));
}

TEST(DriftMarksTest, AProbeMeasuredWhileTheDeviceMovedIsMarkedAndNamed) {
  testing_support::TempDir dir;
  platform::FaultPlatform fake(platform::Default());
  Execution ex = RunSwitching(fake, dir.path(), true);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const report::Target& t = ex.report.targets.at(0);
  ASSERT_EQ(t.probes.size(), 2u);
  ASSERT_EQ(t.reference.size(), 3u);  // before each probe, and after the last
  EXPECT_EQ(t.reference[0].before, "fdatasync overwrite 4 KiB");
  EXPECT_EQ(t.reference[2].before, "end");
  ASSERT_EQ(t.moved.size(), 1u);
  EXPECT_EQ(t.moved[0].probe, 1u);
  EXPECT_DOUBLE_EQ(t.moved[0].before_ns, 300'000);
  EXPECT_DOUBLE_EQ(t.moved[0].after_ns, 1'000'000);
  ASSERT_TRUE(report::HasDriftFinding(t));

  nlohmann::json j = report::ToJson(ex.report);
  const nlohmann::json& probes = j["targets"][0]["probes"];
  EXPECT_FALSE(probes[0].contains("device_moved"));
  EXPECT_EQ(probes[1]["device_moved"]["before_ns"], 300'000.0);
  EXPECT_EQ(probes[1]["device_moved"]["after_ns"], 1'000'000.0);

  // The second probe's p99 (about 1 ms) was read at 650 us; the run went from 300 us to 1 ms.
  report::Policy policy;
  policy.latency = {{.name = "append_p99", .spec = kMarkAppend, .max_ns = 1'200'000},
                    {.name = "append_p99_loose", .spec = kMarkAppend, .max_ns = 10'000'000}};
  std::vector<report::CheckResult> checks = report::EvaluatePolicy(policy, ex.report);
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(checks[0].outcome, report::CheckOutcome::kUnstable) << checks[0].message;
  ASSERT_TRUE(checks[0].drift_low && checks[0].drift_high);
  EXPECT_LT(*checks[0].drift_low, 0.0012);
  EXPECT_GE(*checks[0].drift_high, 0.0012);
  EXPECT_EQ(checks[1].outcome, report::CheckOutcome::kPass) << checks[1].message;
}

TEST(DriftMarksTest, ASteadyDeviceMarksNothingAndTheRulePasses) {
  testing_support::TempDir dir;
  platform::FaultPlatform fake(platform::Default());
  Execution ex = RunSwitching(fake, dir.path(), false);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const report::Target& t = ex.report.targets.at(0);
  EXPECT_EQ(t.reference.size(), 3u);
  EXPECT_TRUE(t.moved.empty());
  EXPECT_FALSE(report::HasDriftFinding(t));
  report::Policy policy;
  policy.latency = {{.name = "append_p99", .spec = kMarkAppend, .max_ns = 1'200'000}};
  EXPECT_EQ(report::EvaluatePolicy(policy, ex.report).at(0).outcome, report::CheckOutcome::kPass);
}

// A reference sample whose sync fails is left out but never silently: one probe_error for the
// path, however many samples failed.
TEST(DriftMarksTest, AFailedReferenceSyncIsAFindingOncePerPath) {
  testing_support::TempDir dir;
  platform::FaultPlatform fake(platform::Default());
  fake.UseFakeClock();
  fake.FailSyncs(EIO);
  Execution ex = Execute(fake, TwoTimedProbes(dir.path()));
  const report::Target& t = ex.report.targets.at(0);
  EXPECT_TRUE(t.reference.empty());
  int said = 0;
  for (const report::Finding& f : t.findings) {
    if (f.code != "probe_error" || f.message.rfind("the reference probe (", 0) != 0) continue;
    ++said;
    // Said once per subject, whatever the message says (each failed sample names what it preceded).
    EXPECT_EQ(f.subject, "reference probe " + report::ProbeLabel(ReferenceSpec(fake)));
    EXPECT_EQ(f.severity, report::Severity::kFail);
    EXPECT_NE(f.message.find("Input/output error"), std::string::npos) << f.message;
  }
  EXPECT_EQ(said, 1);
}

}  // namespace
}  // namespace durprobe::run
