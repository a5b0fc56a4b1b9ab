// Check's re-measure of a rule the drift left unstable, on the fault platform's fake clock: a
// run whose device went from 300 us to 1 ms a sync in the middle of the second probe leaves a
// 1.2 ms p99 rule on that probe unstable (as in drift_marks_test.cc); the re-measure then decides
// it when the device holds steady, stops after kMaxRemeasures when it never does, and keeps
// within what is left of the budget.
#include "run/check_remeasure.h"

#include <gtest/gtest.h>

#include <string>

#include "codec/report_json.h"
#include "gate/rules.h"
#include "run/executor.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"
#include "tests/timed_probes_plan.h"

namespace durprobe::run {
namespace {

using testing_support::TwoTimedProbes;
constexpr probes::ProbeSpec kAppend = testing_support::kTimedAppend;

gate::Policy AppendP99() {
  gate::Policy policy;
  policy.latency = {{.name = "append_p99", .spec = kAppend, .max_ns = 1'200'000}};
  return policy;
}

class CheckRemeasureTest : public ::testing::Test {
 protected:
  // The run: 300 us a sync, 1 ms from the middle of the second probe on; its rule unstable.
  void SetUp() override {
    fake_.UseFakeClock();
    fake_.AddSyncLatency(300'000);
    fake_.AddSyncLatencyAfter(700'000, 684);  // reference (42), probe 1 (400), reference (42)
    ex_ = Execute(fake_, TwoTimedProbes(dir_.path(), "check"));
    ASSERT_TRUE(ex_.status.ok()) << ex_.status.message();
    ex_.report.checks = gate::EvaluatePolicy(AppendP99(), ex_.report);
    ASSERT_EQ(ex_.report.checks.size(), 1u);
    ASSERT_EQ(ex_.report.checks[0].outcome, model::CheckOutcome::kUnstable)
        << ex_.report.checks[0].message;
    plan_.rule = TwoTimedProbes(dir_.path()).probes.rule;
    plan_.op_options.file_size = 1 << 20;
  }

  testing_support::TempDir dir_;
  platform::FaultPlatform fake_{platform::Default()};
  Execution ex_;
  RemeasurePlan plan_;
};

TEST_F(CheckRemeasureTest, AStraddlingRuleIsReMeasuredAndThenDecided) {
  // The device now holds at 1 ms: one re-measure, steady, decides the 1.2 ms rule.
  BackgroundLoads none;
  JudgeCheck(fake_, AppendP99(), plan_, none, ex_.report);
  ASSERT_EQ(ex_.report.checks.size(), 1u);
  const model::CheckResult& c = ex_.report.checks[0];
  EXPECT_EQ(c.outcome, model::CheckOutcome::kPass) << c.message;
  EXPECT_EQ(c.remeasured, 1u);
  EXPECT_FALSE(c.drift_low);
  EXPECT_NE(c.message.find("re-measure 1 of at most 2 held steady"), std::string::npos)
      << c.message;
  EXPECT_EQ(codec::ToJson(ex_.report)["checks"][0]["remeasured"], 1);
  // The report's probe table keeps the run's own measurement.
  EXPECT_EQ(ex_.report.targets[0].probes.size(), 2u);
}

TEST_F(CheckRemeasureTest, ARuleItsOwnIntervalCouldNotDecideIsReMeasuredToo) {
  // The rule left "cannot tell" by its own figure (gate/rules.cc), not by the drift: it is
  // re-measured as a drift's is, and the steady re-measure decides it.
  model::CheckResult& open = ex_.report.checks[0];
  open.drift_low.reset();
  open.drift_high.reset();
  open.undecided = true;
  std::vector<model::CheckResult> again = RemeasureUnstable(fake_, AppendP99(), plan_, ex_.report);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].outcome, model::CheckOutcome::kPass) << again[0].message;
  EXPECT_EQ(again[0].remeasured, 1u);
  EXPECT_NE(again[0].message.find("could not decide the rule"), std::string::npos)
      << again[0].message;
  // Neither drifted nor undecided: nothing to re-measure.
  open.undecided = false;
  EXPECT_TRUE(RemeasureUnstable(fake_, AppendP99(), plan_, ex_.report).empty());
}

TEST_F(CheckRemeasureTest, ADeviceThatNeverSettlesIsReMeasuredTwiceAtMost) {
  fake_.AddSyncLatencyRamp(500'000, 50);  // slower every 50 syncs: no re-measure is steady
  std::vector<model::CheckResult> again = RemeasureUnstable(fake_, AppendP99(), plan_, ex_.report);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].outcome, model::CheckOutcome::kUnstable) << again[0].message;
  EXPECT_EQ(again[0].remeasured, kMaxRemeasures);
  EXPECT_NE(again[0].message.find("re-measured 2 time(s), none with the device steady"),
            std::string::npos)
      << again[0].message;
}

TEST_F(CheckRemeasureTest, TooLittleBudgetLeftMeansNoReMeasure) {
  plan_.deadline_ns = fake_.NowNanos() + kMinRemeasureNs / 2;
  const int syncs = fake_.sync_calls();
  std::vector<model::CheckResult> again = RemeasureUnstable(fake_, AppendP99(), plan_, ex_.report);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].outcome, model::CheckOutcome::kUnstable);
  EXPECT_EQ(again[0].remeasured, 0u);
  EXPECT_NE(again[0].message.find("not re-measured: the budget was spent"), std::string::npos)
      << again[0].message;
  EXPECT_EQ(fake_.sync_calls(), syncs);  // nothing was measured
}

TEST_F(CheckRemeasureTest, AReMeasureEndsWithinTheBudgetLeft) {
  // A rule that would run 1,000 syncs of 1 ms: the share cuts it.
  plan_.rule.min_ops = 1000;
  plan_.rule.max_ops = 0;
  plan_.deadline_ns = fake_.NowNanos() + 1'000'000'000;
  std::vector<model::CheckResult> again = RemeasureUnstable(fake_, AppendP99(), plan_, ex_.report);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_GE(again[0].remeasured, 1u);
  EXPECT_LE(fake_.NowNanos(), plan_.deadline_ns);
}

TEST(CheckRemeasureRulesTest, OnlyRulesTheDriftLeftUnstableAreReMeasured) {
  platform::FaultPlatform fake(platform::Default());
  fake.UseFakeClock();
  model::Report report;
  model::Target t;
  t.path = "/nowhere";
  report.targets = {t};
  model::CheckResult throttled;  // unstable by the CPU quota: no drift range
  throttled.rule = "append_p99";
  throttled.path = t.path;
  throttled.outcome = model::CheckOutcome::kUnstable;
  report.checks = {throttled};
  EXPECT_TRUE(RemeasureUnstable(fake, AppendP99(), RemeasurePlan{}, report).empty());
  EXPECT_EQ(fake.sync_calls(), 0);
}

}  // namespace
}  // namespace durprobe::run
