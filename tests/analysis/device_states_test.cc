// The device's states on synthetic runs: two levels far apart are split and a quiet disk's noise
// never is; a probe that saw both states gets each state's figures from its own windows, one that
// ran between two slow reference samples is placed in the slow state; the finding says it once;
// check judges a rule on the slow state and the summary names it; the JSON keeps it all.
#include "analysis/device_states.h"

#include <gtest/gtest.h>

#include <random>

#include "codec/json_reader.h"
#include "codec/report_json.h"
#include "explain/diff_analysis.h"
#include "explain/path_summary.h"
#include "gate/rules.h"
#include "render/summary_text.h"
#include "tests/analysis/two_state_run.h"

namespace durprobe::analysis {
namespace {

using namespace two_state_run;  // NOLINT(build/namespaces): the samples of every test here

TEST(DeviceStatesTest, TwoLevelsFarApartAreSplit) {
  std::vector<double> v = Around(8, 100'000, 0.3, 1);
  for (double x : Around(5, 4'000'000, 0.3, 2)) v.push_back(x);
  v.push_back(900'000);  // a point taken during the change
  std::optional<LevelSplit> s = SplitLevels(v);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->fast_n, 8u);
  EXPECT_EQ(s->slow_n, 6u);
  EXPECT_NEAR(s->fast_ns, 100'000, 30'000);
  EXPECT_NEAR(s->slow_ns, 4'000'000, 1'300'000);
  EXPECT_GT(s->threshold_ns, 130'000);
  EXPECT_LT(s->threshold_ns, 900'000);
}

TEST(DeviceStatesTest, AQuietDisksNoiseIsNeverTwoStates) {
  std::mt19937 rng(42);
  for (unsigned seed = 0; seed < 300; ++seed) {
    // Log-normal noise of 35% (a busy but single-state disk), 4 to 40 points.
    std::lognormal_distribution<double> noise(std::log(150'000.0), 0.35);
    std::vector<double> v;
    for (std::size_t i = 0; i < 4 + seed % 37; ++i) v.push_back(noise(rng));
    EXPECT_FALSE(SplitLevels(v)) << seed;
  }
  // Too close together (3x), and too small in absolute time (a tmpfs's 2 us against 8 us).
  std::vector<double> close = Around(6, 100'000, 0.05, 3);
  for (double x : Around(6, 300'000, 0.05, 4)) close.push_back(x);
  EXPECT_FALSE(SplitLevels(close));
  std::vector<double> tiny = Around(6, 2'000, 0.05, 5);
  for (double x : Around(6, 8'000, 0.05, 6)) tiny.push_back(x);
  EXPECT_FALSE(SplitLevels(tiny));
  // One slow point is an outlier, not a state.
  std::vector<double> one = Around(9, 100'000, 0.1, 7);
  one.push_back(4'000'000);
  EXPECT_FALSE(SplitLevels(one));
  EXPECT_FALSE(SplitLevels({100'000, 4'000'000, 100'000}));  // too few points
}

TEST(DeviceStatesTest, EachProbeGetsItsFiguresPerState) {
  model::Target t = TwoStateRun();
  AddDeviceStates(t);
  ASSERT_TRUE(t.device_states);
  EXPECT_EQ(t.device_states->evidence, "the reference probe (fdatasync overwrite 4 KiB)");
  EXPECT_NEAR(t.device_states->fast_ns, 100'000, 10'000);
  EXPECT_NEAR(t.device_states->slow_ns, 4'000'000, 200'000);
  // Slow from 12 s to 32 s of the 0-40 s the samples span, the last sample standing for the
  // mean span (40 / 6 s): 20 / 46.7.
  EXPECT_NEAR(t.device_states->slow_share, 20.0 / (40.0 + 40.0 / 6.0), 1e-9);

  ASSERT_EQ(t.probe_states.size(), 2u);  // probe 2's samples disagree: no state claimed
  const model::ProbeStates& across = t.probe_states[0];
  EXPECT_EQ(across.probe, 0u);
  ASSERT_EQ(across.states.size(), 2u);
  const model::StateFigures& fast = across.states[0];
  const model::StateFigures& slow = across.states[1];
  EXPECT_EQ(fast.state, model::DeviceState::kFast);
  EXPECT_EQ(slow.state, model::DeviceState::kSlow);
  EXPECT_DOUBLE_EQ(fast.time_share, 0.5);
  EXPECT_EQ(fast.ops, 160u);
  EXPECT_EQ(slow.ops, 160u);
  EXPECT_NEAR(double(fast.sync_p50_ns), 100'000, 12'000);
  EXPECT_NEAR(double(slow.sync_p50_ns), 4'000'000, 450'000);
  EXPECT_NEAR(double(slow.p50_ns), 4'010'000, 450'000);  // the whole operation: + 10 us
  EXPECT_GT(slow.sync_p99_ns, slow.sync_p50_ns);         // 160 operations support a p99
  EXPECT_LT(slow.sync_p99_ns, 4'500'000u);
  // Each state's p50 is far from the mixture's, which lies at the boundary between them.
  EXPECT_LT(fast.sync_p99_ns, t.probes[0].sync_latency.p99 / 10);

  const model::ProbeStates& inside = t.probe_states[1];
  EXPECT_EQ(inside.probe, 1u);
  ASSERT_EQ(inside.states.size(), 1u);
  EXPECT_EQ(inside.states[0].state, model::DeviceState::kSlow);
  EXPECT_DOUBLE_EQ(inside.states[0].time_share, 1.0);
  EXPECT_EQ(inside.states[0].ops, 120u);
  EXPECT_EQ(SlowStateOf(t, 1), &inside.states[0]);
  EXPECT_FALSE(SawBothStates(t, 1));
  EXPECT_TRUE(SawBothStates(t, 0));
  EXPECT_EQ(SlowStateOf(t, 2), nullptr);
}

// The device can switch and switch back between two reference samples: a probe whose own level
// is on the other side of the reference's threshold is not placed in the samples' state.
TEST(DeviceStatesTest, AProbeWhoseLevelDisagreesWithTheSamplesAroundItIsPlacedNowhere) {
  model::Target t = TwoStateRun();
  // Probe 1 ran inside the slow stretch; here it ran at 150 us, as if the device were fast.
  t.probes[1] = ProbeOver(std::vector<double>(3, 150'000.0), 20, 21 * kStateSec);
  AddDeviceStates(t);
  ASSERT_TRUE(t.device_states);
  EXPECT_EQ(SlowStateOf(t, 1), nullptr);
  for (const model::ProbeStates& ps : t.probe_states) EXPECT_NE(ps.probe, 1u);
}

// A probe whose own windows split into two levels both under the device's threshold (a step
// from 100 us to 500 us while the device's states are ~100 us and ~4 ms) has no slow-state figures.
TEST(DeviceStatesTest, AProbesOwnStepBelowTheDevicesThresholdIsNotTheSlowState) {
  model::Target t = TwoStateRun();
  std::vector<double> levels(8, 100'000.0);
  levels.insert(levels.end(), 8, 500'000.0);
  t.probes[0] = ProbeOver(levels, 20, 9 * kStateSec + 200'000'000);
  AddDeviceStates(t);
  ASSERT_TRUE(t.device_states);
  EXPECT_EQ(SlowStateOf(t, 0), nullptr);
  EXPECT_FALSE(SawBothStates(t, 0));
}

TEST(DeviceStatesTest, APercentileOnlyFromTheOperationsThatSupportIt) {
  model::Target t = TwoStateRun();
  t.probes[0] = ProbeOver({100'000, 100'000, 100'000, 100'000, 4'000'000, 4'000'000}, 20,
                          9 * kStateSec + 200'000'000);
  AddDeviceStates(t);
  const model::StateFigures* slow = SlowStateOf(t, 0);
  ASSERT_NE(slow, nullptr);
  EXPECT_EQ(slow->ops, 40u);
  EXPECT_GT(slow->p50_ns, 0u);
  EXPECT_EQ(slow->p99_ns, 0u);  // 40 operations: no p99
  EXPECT_EQ(slow->sync_p99_ns, 0u);
}

TEST(DeviceStatesTest, TheFindingSaysItOnceAndGoesWithTheStates) {
  model::Target t = TwoStateRun();
  AddDeviceStates(t);
  AddDeviceStates(t);  // replaces, never duplicates
  ASSERT_EQ(t.findings.size(), 1u);
  const model::Finding& f = t.findings[0];
  EXPECT_EQ(f.code, "device_states");
  EXPECT_EQ(f.severity, model::Severity::kInfo);
  EXPECT_NE(f.message.find("alternates between ~"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("in the slow state 43%"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("measured in both states: 1, in the slow state only: 1"),
            std::string::npos)
      << f.message;

  // The same run on a device that held one level: no states, no finding, no figures per state.
  model::Target steady = TwoStateRun();
  for (model::ReferenceSample& r : steady.reference) r.mean_ns = 100'000, r.p50_ns = 100'000;
  steady.probes.erase(steady.probes.begin());
  steady.findings = t.findings;
  AddDeviceStates(steady);
  EXPECT_FALSE(steady.device_states);
  EXPECT_TRUE(steady.probe_states.empty());
  EXPECT_TRUE(steady.findings.empty());
}

TEST(DeviceStatesTest, WithFewReferenceSamplesAProbesOwnWindowsShowTheStates) {
  model::Target t = TwoStateRun();
  t.reference.resize(3);
  AddDeviceStates(t);
  ASSERT_TRUE(t.device_states);
  EXPECT_EQ(t.device_states->evidence, "fdatasync overwrite 4 KiB");
  EXPECT_DOUBLE_EQ(t.device_states->slow_share, 0.5);
  ASSERT_EQ(t.probe_states.size(), 1u);  // the others cannot be placed without the reference
  EXPECT_EQ(t.probe_states[0].states.size(), 2u);
}

TEST(DeviceStatesTest, FourWindowsOfOneProbeAreTooShortToTellStates) {
  model::Target t = TwoStateRun();
  t.reference.resize(3);
  t.probes = {ProbeOver({100'000, 100'000, 4'000'000, 4'000'000}, 20, 9 * kStateSec)};
  AddDeviceStates(t);
  EXPECT_FALSE(t.device_states);
  EXPECT_TRUE(t.findings.empty());
}

// A reference sample is placed by its median: a few slow syncs, or a switch inside the sample,
// move its mean between the states (here every mean reads 1.5 ms) but not where most syncs were.
TEST(DeviceStatesTest, AReferenceSampleIsPlacedByItsMedian) {
  model::Target t = TwoStateRun();
  for (model::ReferenceSample& r : t.reference) r.mean_ns = 1'500'000;
  AddDeviceStates(t);
  ASSERT_TRUE(t.device_states);
  EXPECT_EQ(t.device_states->evidence, "the reference probe (fdatasync overwrite 4 KiB)");
  EXPECT_NEAR(t.device_states->slow_ns, 4'000'000, 200'000);
}

TEST(DeviceStatesTest, AReportLoadedWithoutWindowsClaimsNoFigures) {
  model::Target t = TwoStateRun();
  for (probes::ProbeResult& p : t.probes) {
    for (probes::SeriesPoint& s : p.series) s.buckets.clear(), s.sync_buckets.clear();
  }
  AddDeviceStates(t);
  EXPECT_TRUE(t.device_states);
  EXPECT_TRUE(t.probe_states.empty());
}

TEST(DeviceStatesTest, CheckJudgesATimingRuleOnTheSlowState) {
  model::Report report;
  report.targets.push_back(TwoStateRun());
  AddDeviceStates(report.targets[0]);
  gate::Policy policy;
  // The mixture's p50 (the boundary between the states) would pass 3 ms; the slow state fails it.
  policy.latency = {{.name = "p50_3ms",
                     .spec = kStatesSpec,
                     .stat = gate::LatencyStat::kP50,
                     .max_ns = 3'000'000}};
  std::vector<model::CheckResult> checks = EvaluatePolicy(policy, report);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].outcome, model::CheckOutcome::kFail) << checks[0].message;
  EXPECT_EQ(checks[0].samples, 160u);
  // The interval is the slow state's own, around its figure.
  ASSERT_TRUE(checks[0].ci_low && checks[0].ci_high);
  EXPECT_LE(*checks[0].ci_low, *checks[0].measured);
  EXPECT_GE(*checks[0].ci_high, *checks[0].measured);
  EXPECT_GT(*checks[0].ci_low, 0.003);
  EXPECT_NE(checks[0].message.find(" samples, 50% of the probe's time; over both states"),
            std::string::npos)
      << checks[0].message;
  EXPECT_NE(checks[0].message.find("in the device's slow state (95% CI "), std::string::npos)
      << checks[0].message;
  // Without the states the same probe is judged on its mixture.
  report.targets[0].probe_states.clear();
  checks = EvaluatePolicy(policy, report);
  EXPECT_EQ(checks[0].samples, report.targets[0].probes[0].sync_latency.count);
}

TEST(DeviceStatesTest, TheSummaryNamesTheSlowStateOfItsSyncProbe) {
  model::Target t = TwoStateRun();
  t.probes.resize(1);
  AddDeviceStates(t);
  model::PathSummary s = explain::SummarizePath(t);
  ASSERT_TRUE(s.sync_slow_state);
  EXPECT_DOUBLE_EQ(s.sync_slow_state->time_share, 0.5);
  EXPECT_NEAR(s.sync_slow_state->p50_ns, 4'000'000, 450'000);
  ASSERT_TRUE(s.sync_slow_state->p99_ns);
  ASSERT_TRUE(s.sync_fast_state);
  EXPECT_DOUBLE_EQ(s.sync_fast_state->time_share, 0.5);
  EXPECT_LT(s.sync_fast_state->p50_ns, s.sync_slow_state->p50_ns);
  // The slow state first, then the fast, then the mixture the table shows.
  std::string text = render::SyncCostText(s);
  const std::size_t slow = text.find(
      ": in the device's slow state (50% of the probe's time), the state to plan for: p50 ");
  const std::size_t fast = text.find("; in its fast state (50%): p50 ");
  const std::size_t both = text.find("; over both: p50 ");
  EXPECT_NE(slow, std::string::npos) << text;
  EXPECT_NE(fast, std::string::npos) << text;
  EXPECT_NE(both, std::string::npos) << text;
  EXPECT_LT(slow, fast) << text;
  EXPECT_LT(fast, both) << text;
}

TEST(DeviceStatesTest, TheJsonKeepsTheStates) {
  model::Report report;
  report.targets.push_back(TwoStateRun());
  AddDeviceStates(report.targets[0]);
  explain::AddPathSummary(report.targets[0]);
  nlohmann::json j = codec::ToJson(report);
  const nlohmann::json& target = j["targets"][0];
  EXPECT_EQ(target["states"]["evidence"], "the reference probe (fdatasync overwrite 4 KiB)");
  const nlohmann::json& states = target["probes"][0]["states"];
  ASSERT_EQ(states.size(), 2u);
  EXPECT_EQ(states[0]["state"], "fast");
  EXPECT_EQ(states[1]["state"], "slow");
  EXPECT_EQ(states[1]["ops"], 160);
  EXPECT_TRUE(states[1]["sync"]["p99_ns"].is_number());
  EXPECT_FALSE(target["probes"][2].contains("states"));
  EXPECT_TRUE(target["summary"]["sync"]["slow_state"].is_object());
  EXPECT_TRUE(target["summary"]["sync"]["fast_state"].is_object());

  Result<model::Report> back = codec::FromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().message();
  const model::Target& t = back->targets[0];
  ASSERT_TRUE(t.device_states);
  EXPECT_EQ(t.device_states->slow_ns, report.targets[0].device_states->slow_ns);
  ASSERT_EQ(t.probe_states.size(), 2u);
  EXPECT_EQ(t.probe_states[0].states[1].sync_p99_ns,
            report.targets[0].probe_states[0].states[1].sync_p99_ns);
  EXPECT_EQ(t.probe_states[1].probe, 1u);
  EXPECT_EQ(t.probe_states[1].states[0].state, model::DeviceState::kSlow);
  ASSERT_TRUE(t.summary && t.summary->sync_slow_state);
  EXPECT_EQ(t.summary->sync_slow_state->time_share, 0.5);
  ASSERT_TRUE(t.summary->sync_fast_state);
  EXPECT_EQ(t.summary->sync_fast_state->p50_ns, report.targets[0].summary->sync_fast_state->p50_ns);
}

// diff compares the mixtures row by row; where either side's device had states it warns, with
// each side's levels and the probes measured in the same state on both sides side by side.
TEST(DeviceStatesTest, DiffWarnsOfStatesAndSetsTheSameStateSideBySide) {
  model::Report a;
  a.targets.push_back(TwoStateRun());
  AddDeviceStates(a.targets[0]);
  auto states_warning = [](const explain::Diff& d) {
    for (const std::string& w : d.warnings) {
      if (w.find("(device_states)") != std::string::npos) return w;
    }
    return std::string();
  };
  Result<explain::Diff> both = explain::DiffReports(a, a, "a", "b");
  ASSERT_TRUE(both.ok()) << both.status().message();
  std::string w = states_warning(*both);
  EXPECT_NE(w.find("the device of /data (a) alternated between ~"), std::string::npos) << w;
  EXPECT_NE(w.find("fdatasync overwrite 4 KiB in the slow state: p50 4."), std::string::npos) << w;
  EXPECT_NE(w.find(" (a) against "), std::string::npos) << w;

  model::Report steady = a;
  steady.targets[0].device_states.reset();
  steady.targets[0].probe_states.clear();
  Result<explain::Diff> one = explain::DiffReports(a, steady, "a", "b");
  ASSERT_TRUE(one.ok());
  w = states_warning(*one);
  EXPECT_NE(w.find("(b) held one level"), std::string::npos) << w;
  EXPECT_NE(w.find("no probe was measured in the same state on both sides"), std::string::npos)
      << w;

  Result<explain::Diff> neither = explain::DiffReports(steady, steady, "a", "b");
  ASSERT_TRUE(neither.ok());
  EXPECT_EQ(states_warning(*neither), "");
}

}  // namespace
}  // namespace durprobe::analysis
