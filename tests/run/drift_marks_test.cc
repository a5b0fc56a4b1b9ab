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
  // Sample (42), probe 1 (400), sample (42): the 684th sync falls mid-way through probe 2.
  if (switch_mid_run) fake.AddSyncLatencyAfter(700'000, 684);
  return Execute(fake, TwoTimedProbes(dir));
}

TEST(DriftMarksTest, AProbeMeasuredWhileTheDeviceMovedIsMarkedAndNamed) {
  testing_support::TempDir dir;
  platform::FaultPlatform fake(platform::Default());
  Execution ex = RunSwitching(fake, dir.path(), true);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const model::Target& t = ex.report.targets.at(0);
  ASSERT_EQ(t.probes.size(), 2u);
  ASSERT_EQ(t.reference.size(), 3u);  // before each probe, and after the last
  EXPECT_EQ(t.reference[0].before, "fdatasync overwrite 4 KiB");
  EXPECT_EQ(t.reference[2].before, "end");
  ASSERT_EQ(t.moved.size(), 1u);
  EXPECT_EQ(t.moved[0].probe, 1u);
  EXPECT_DOUBLE_EQ(t.moved[0].before_ns, 300'000);
  EXPECT_DOUBLE_EQ(t.moved[0].after_ns, 1'000'000);
  ASSERT_TRUE(analysis::HasDriftFinding(t));

  nlohmann::json j = codec::ToJson(ex.report);
  const nlohmann::json& probes = j["targets"][0]["probes"];
  EXPECT_FALSE(probes[0].contains("device_moved"));
  EXPECT_EQ(probes[1]["device_moved"]["before_ns"], 300'000.0);
  EXPECT_EQ(probes[1]["device_moved"]["after_ns"], 1'000'000.0);

  // The second probe's p99 (about 1 ms) was read at 650 us; the run went from 300 us to 1 ms.
  gate::Policy policy;
  policy.latency = {{.name = "append_p99", .spec = kMarkAppend, .max_ns = 1'200'000},
                    {.name = "append_p99_loose", .spec = kMarkAppend, .max_ns = 10'000'000}};
  std::vector<model::CheckResult> checks = gate::EvaluatePolicy(policy, ex.report);
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(checks[0].outcome, model::CheckOutcome::kUnstable) << checks[0].message;
  ASSERT_TRUE(checks[0].drift_low && checks[0].drift_high);
  EXPECT_LT(*checks[0].drift_low, 0.0012);
  EXPECT_GE(*checks[0].drift_high, 0.0012);
  EXPECT_EQ(checks[1].outcome, model::CheckOutcome::kPass) << checks[1].message;
}

TEST(DriftMarksTest, ASteadyDeviceMarksNothingAndTheRulePasses) {
  testing_support::TempDir dir;
  platform::FaultPlatform fake(platform::Default());
  Execution ex = RunSwitching(fake, dir.path(), false);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const model::Target& t = ex.report.targets.at(0);
  EXPECT_EQ(t.reference.size(), 3u);
  EXPECT_TRUE(t.moved.empty());
  EXPECT_FALSE(analysis::HasDriftFinding(t));
  gate::Policy policy;
  policy.latency = {{.name = "append_p99", .spec = kMarkAppend, .max_ns = 1'200'000}};
  EXPECT_EQ(gate::EvaluatePolicy(policy, ex.report).at(0).outcome, model::CheckOutcome::kPass);
}

// A device in two states through the whole run path (executor, timed loop, analysis): syncs take
// 100 us for the first 3,000 of them, then 4 ms. One probe of 2 s on the fake clock spends its
// first ~300 ms in the fast state and the rest in the slow one; with only two reference samples
// its own windows show the states, and its figures per state come from its windows.
TEST(DriftMarksTest, AProbeAcrossTwoStatesGetsEachStatesFigures) {
  testing_support::TempDir dir;
  platform::FaultPlatform fake(platform::Default());
  fake.UseFakeClock();
  fake.AddSyncLatency(100'000);
  fake.AddSyncLatencyAfter(3'900'000, 3'000);
  Plan plan = testing_support::TwoTimedProbes(dir.path());
  plan.probes.specs.resize(1);
  plan.probes.rule.min_ops = 0;
  plan.probes.rule.max_ops = 0;
  plan.probes.rule.min_ns = 2'000'000'000;
  plan.probes.rule.max_ns = 2'000'000'000;
  Execution ex = Execute(fake, plan);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const model::Target& t = ex.report.targets.at(0);
  ASSERT_TRUE(t.device_states);
  EXPECT_EQ(t.device_states->evidence, "fdatasync overwrite 4 KiB");
  EXPECT_NEAR(t.device_states->fast_ns, 100'000, 10'000);
  EXPECT_NEAR(t.device_states->slow_ns, 4'000'000, 100'000);
  ASSERT_EQ(t.probe_states.size(), 1u);
  const std::vector<model::StateFigures>& states = t.probe_states[0].states;
  ASSERT_EQ(states.size(), 2u);
  EXPECT_EQ(states[0].state, model::DeviceState::kFast);
  EXPECT_EQ(states[1].state, model::DeviceState::kSlow);
  // Every timed operation lands in one state or the other (the window in which the device
  // switched goes to the state its median is in).
  EXPECT_EQ(states[0].ops + states[1].ops, t.probes[0].ops);
  EXPECT_NEAR(double(states[0].sync_p50_ns), 100'000, 2'000);
  EXPECT_NEAR(double(states[1].sync_p50_ns), 4'000'000, 40'000);
  EXPECT_GT(states[1].sync_p99_ns, 0u);   // over 100 slow syncs
  EXPECT_GT(states[1].time_share, 0.7);  // 1.7 s of the 2 s
  int said = 0;
  for (const model::Finding& f : t.findings) said += f.code == "device_states" ? 1 : 0;
  EXPECT_EQ(said, 1);

  nlohmann::json j = codec::ToJson(ex.report);
  EXPECT_EQ(j["targets"][0]["probes"][0]["states"].size(), 2u);
  EXPECT_EQ(j["targets"][0]["states"]["evidence"], "fdatasync overwrite 4 KiB");
}

// A reference sample whose sync fails is left out but never silently: one probe_error for the
// path, however many samples failed.
TEST(DriftMarksTest, AFailedReferenceSyncIsAFindingOncePerPath) {
  testing_support::TempDir dir;
  platform::FaultPlatform fake(platform::Default());
  fake.UseFakeClock();
  fake.FailSyncs(EIO);
  Execution ex = Execute(fake, TwoTimedProbes(dir.path()));
  const model::Target& t = ex.report.targets.at(0);
  EXPECT_TRUE(t.reference.empty());
  int said = 0;
  for (const model::Finding& f : t.findings) {
    if (f.code != "probe_error" || f.message.rfind("the reference probe (", 0) != 0) continue;
    ++said;
    // Said once per subject, whatever the message says (each failed sample names what it preceded).
    EXPECT_EQ(f.subject, "reference probe " + model::ProbeLabel(ReferenceSpec(fake)));
    EXPECT_EQ(f.severity, model::Severity::kFail);
    EXPECT_NE(f.message.find("Input/output error"), std::string::npos) << f.message;
  }
  EXPECT_EQ(said, 1);
}

}  // namespace
}  // namespace durprobe::run
