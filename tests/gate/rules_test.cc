// Rule evaluation on fixture reports: a pass, a fail, a tail-only failure, a missing measurement
// (an error, never a pass), an unsupported primitive (skipped), facts and findings.
#include "gate/rules.h"

#include <gtest/gtest.h>

#include "gate/facts.h"
#include "probes/statistics.h"
#include "probes/timed_loop.h"
#include "tests/gate/rule_samples.h"

namespace durprobe::gate {
namespace {

using namespace rule_samples;
using probes::Pattern;
using probes::Primitive;

TEST(CheckRulesTest, LatencyUnderTheLimitPassesWithSamplesAndInterval) {
  Policy policy;
  policy.latency = {P99Under10ms()};
  std::vector<model::CheckResult> checks =
      EvaluatePolicy(policy, OneTarget({Probe(kWal, 1'000'000, 2'000'000, 3'000'000)}));
  ASSERT_EQ(checks.size(), 1u);
  const model::CheckResult& c = checks[0];
  EXPECT_EQ(c.outcome, model::CheckOutcome::kPass);
  EXPECT_EQ(c.path, "/data");
  EXPECT_EQ(c.unit, model::CheckUnit::kSeconds);
  EXPECT_DOUBLE_EQ(*c.measured, 0.003);
  EXPECT_DOUBLE_EQ(c.threshold, 0.010);
  EXPECT_EQ(c.samples, 1000u);
  ASSERT_TRUE(c.ci_low && c.ci_high);
  EXPECT_LT(*c.ci_low, *c.measured);
  EXPECT_GT(*c.ci_high, *c.measured);
  EXPECT_NE(c.message.find("1000 samples"), std::string::npos) << c.message;
}

// Issue 32 item 18: the rule judges the sync call alone, not write + sync (the fixture above sets
// both to one value, so a rule reading the whole operation passed every test). Here they differ
// on either side of the limit, both ways.
TEST(CheckRulesTest, ALatencyRuleJudgesTheSyncCallNotWritePlusSync) {
  Policy policy;
  policy.latency = {P99Under10ms()};
  probes::ProbeResult fast_sync = Probe(kWal, 1'000'000, 2'000'000, 3'000'000);
  fast_sync.latency.p99 = 12'000'000;  // the write before it is slow; the sync is not
  fast_sync.latency.p50 = 1'500'000;
  std::vector<model::CheckResult> pass = EvaluatePolicy(policy, OneTarget({fast_sync}));
  ASSERT_EQ(pass.size(), 1u);
  EXPECT_EQ(pass[0].outcome, model::CheckOutcome::kPass) << pass[0].message;
  EXPECT_DOUBLE_EQ(*pass[0].measured, 0.003);
  EXPECT_NE(pass[0].message.find("sync call p99 3.00 ms"), std::string::npos) << pass[0].message;
  EXPECT_NE(pass[0].message.find("write + sync 12.0 ms"), std::string::npos) << pass[0].message;

  probes::ProbeResult slow_sync = Probe(kWal, 1'000'000, 2'000'000, 11'000'000);
  slow_sync.latency.p99 = 9'000'000;  // impossible on a real probe, but it tells the two apart
  std::vector<model::CheckResult> fail = EvaluatePolicy(policy, OneTarget({slow_sync}));
  EXPECT_EQ(fail[0].outcome, model::CheckOutcome::kFail) << fail[0].message;
  EXPECT_DOUBLE_EQ(*fail[0].measured, 0.011);
}

TEST(CheckRulesTest, TheLimitItselfFailsAsEtcdsRuleSays) {
  Policy policy;
  policy.latency = {P99Under10ms()};
  probes::ProbeResult at = Probe(kWal, 9'000'000, 10'000'000, 10'000'000);
  at.sync_latency.p99_ci_low = 10'000'000;  // the whole interval at or over the limit
  std::vector<model::CheckResult> checks = EvaluatePolicy(policy, OneTarget({at}));
  EXPECT_EQ(checks[0].outcome, model::CheckOutcome::kFail) << checks[0].message;
  EXPECT_FALSE(checks[0].tail_failure);  // p95 is over too
}

TEST(CheckRulesTest, OnlyTheTailOverIsATailFailureWithCauses) {
  Policy policy;
  policy.latency = {P99Under10ms()};
  std::vector<model::CheckResult> checks =
      EvaluatePolicy(policy, OneTarget({Probe(kWal, 1'000'000, 3'400'000, 67'000'000)}));
  EXPECT_EQ(checks[0].outcome, model::CheckOutcome::kFail);
  EXPECT_TRUE(checks[0].tail_failure);
  EXPECT_FALSE(checks[0].severe);
  EXPECT_NE(checks[0].message.find("throttling"), std::string::npos) << checks[0].message;
}

TEST(CheckRulesTest, OverTheSevereThresholdIsSevere) {
  Policy policy;
  policy.latency = {P99Under10ms()};
  std::vector<model::CheckResult> checks =
      EvaluatePolicy(policy, OneTarget({Probe(kWal, 50'000'000, 90'000'000, 150'000'000)}));
  EXPECT_EQ(checks[0].outcome, model::CheckOutcome::kFail);
  EXPECT_TRUE(checks[0].severe);
  EXPECT_NE(checks[0].message.find("heartbeat"), std::string::npos);
}

TEST(CheckRulesTest, AMissingMeasurementIsAnErrorNeverAPass) {
  Policy policy;
  policy.latency = {P99Under10ms()};
  policy.rates = {{.name = "floor", .spec = kWal, .min_ops_per_sec = 50}};
  policy.commits = {{.name = "wal_full", .min_commits_per_sec = 100}};
  std::vector<model::CheckResult> checks = EvaluatePolicy(policy, OneTarget({}));
  ASSERT_EQ(checks.size(), 3u);
  for (const model::CheckResult& c : checks) {
    EXPECT_EQ(c.outcome, model::CheckOutcome::kError) << c.rule;
    EXPECT_FALSE(c.measured.has_value()) << c.rule;
    EXPECT_NE(c.message.find("not measured"), std::string::npos) << c.message;
  }
}

TEST(CheckRulesTest, AFailedProbeIsAnErrorAndAnUnsupportedOneIsSkipped) {
  probes::ProbeResult failed = Probe(kWal, 1, 1, 1);
  failed.outcome = probes::Outcome::kError;
  failed.reason = "fdatasync: Input/output error";
  probes::ProbeSpec full{Primitive::kFullFsync, Pattern::kOverwrite, 4096};
  probes::ProbeResult unsupported;
  unsupported.spec = full;
  unsupported.outcome = probes::Outcome::kUnsupported;
  unsupported.reason = "F_FULLFSYNC is macOS only";
  Policy policy;
  policy.latency = {P99Under10ms(), {.name = "full", .spec = full, .max_ns = 1'000'000}};
  std::vector<model::CheckResult> checks = EvaluatePolicy(policy, OneTarget({failed, unsupported}));
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(checks[0].outcome, model::CheckOutcome::kError);
  EXPECT_NE(checks[0].message.find("Input/output error"), std::string::npos);
  EXPECT_EQ(checks[1].outcome, model::CheckOutcome::kSkipped);
  EXPECT_NE(checks[1].message.find("macOS only"), std::string::npos);
}

TEST(CheckRulesTest, RateFloorAndSlowSyncCount) {
  probes::ProbeResult r = Probe(kWal, 1'000'000, 2'000'000, 3'000'000, 1'500'000'000);
  r.ops_per_sec = 40;
  r.sync_histogram = {{1'000'000, 990}, {3'000'000, 8}, {1'200'000'000, 1}, {1'500'000'000, 1}};
  Policy policy;
  policy.rates = {{.name = "floor", .spec = kWal, .min_ops_per_sec = 50}};
  policy.slow_syncs = {{.name = "slow", .spec = kWal, .over_ns = 1'000'000'000, .max_count = 0}};
  std::vector<model::CheckResult> checks = EvaluatePolicy(policy, OneTarget({r}));
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(checks[0].rule, "slow");
  EXPECT_EQ(checks[0].outcome, model::CheckOutcome::kFail);
  EXPECT_DOUBLE_EQ(*checks[0].measured, 2.0);
  EXPECT_EQ(checks[1].rule, "floor");
  EXPECT_EQ(checks[1].outcome, model::CheckOutcome::kFail);
  EXPECT_DOUBLE_EQ(*checks[1].measured, 40.0);
}

TEST(CheckRulesTest, CommitFloorReadsSingleRowCommits) {
  model::Report report = OneTarget({});
  model::SqliteEntry e;
  e.result.config.journal = sqlite_bench::JournalMode::kWal;
  e.result.config.sync = sqlite_bench::Synchronous::kFull;
  e.result.commits = 300;
  e.result.repetitions = 3;
  e.result.commits_per_sec = 450;
  report.targets[0].sqlite.push_back(e);
  Policy policy;
  policy.commits = {{.name = "commits_WAL_FULL", .min_commits_per_sec = 500},
                    {.name = "commits_WAL_NORMAL",
                     .sync = sqlite_bench::Synchronous::kNormal,
                     .min_commits_per_sec = 10}};
  std::vector<model::CheckResult> checks = EvaluatePolicy(policy, report);
  EXPECT_EQ(checks[0].outcome, model::CheckOutcome::kFail);
  EXPECT_EQ(checks[0].unit, model::CheckUnit::kCommitsPerSec);
  EXPECT_EQ(checks[1].outcome, model::CheckOutcome::kError);
}

// A floor is a minimum: a rate exactly at it passes (>=, not >), one just below fails.
TEST(CheckRulesTest, FloorsMetExactlyPass) {
  for (double delta : {0.0, -0.5}) {
    probes::ProbeResult r = Probe(kWal, 1'000'000, 2'000'000, 3'000'000);
    r.ops_per_sec = 50 + delta;
    model::Report report = OneTarget({r});
    model::SqliteEntry e;
    e.result.config.journal = sqlite_bench::JournalMode::kWal;
    e.result.config.sync = sqlite_bench::Synchronous::kFull;
    e.result.commits = 300;
    e.result.repetitions = 3;
    e.result.commits_per_sec = 500 + delta;
    report.targets[0].sqlite.push_back(e);
    Policy policy;
    policy.rates = {{.name = "floor", .spec = kWal, .min_ops_per_sec = 50}};
    policy.commits = {{.name = "commits_WAL_FULL", .min_commits_per_sec = 500}};
    model::CheckOutcome want =
        delta == 0.0 ? model::CheckOutcome::kPass : model::CheckOutcome::kFail;
    for (const model::CheckResult& c : EvaluatePolicy(policy, report)) {
      EXPECT_EQ(c.outcome, want) << c.rule << " at " << delta;
    }
  }
}

TEST(CheckRulesTest, FactsFromTheMountAndAnUnknownMountIsAnError) {
  model::Report report = OneTarget({});
  Policy policy;
  policy.facts = {Fact::kNotNetworkFs, Fact::kNotOverlay, Fact::kWriteThroughOrFua};
  std::vector<model::CheckResult> unknown = EvaluatePolicy(policy, report);
  for (const model::CheckResult& c : unknown)
    EXPECT_EQ(c.outcome, model::CheckOutcome::kError) << c.rule;

  platform::MountInfo m;
  m.fstype = "nfs4";
  platform::DeviceInfo d;
  d.name = "vda";
  d.write_cache = "write back";
  d.fua = true;
  m.device = d;
  report.targets[0].mount = m;
  std::vector<model::CheckResult> checks = EvaluatePolicy(policy, report);
  EXPECT_EQ(checks[0].outcome, model::CheckOutcome::kFail);  // network
  EXPECT_EQ(checks[1].outcome, model::CheckOutcome::kPass);  // not an overlay
  EXPECT_EQ(checks[2].outcome, model::CheckOutcome::kPass);  // FUA makes up for the volatile cache
}

TEST(CheckRulesTest, FindingsFailByCodeAndBySeverity) {
  model::Report report = OneTarget({});
  report.targets[0].findings = {{model::Severity::kWarn, "sync_tail_heavy", "tail"},
                                {model::Severity::kInfo, "zfs_sync_not_visible", "zfs"}};
  Policy policy;
  policy.fail_on_codes = {"barrier_disabled", "sync_tail_heavy"};
  policy.fail_on_severity = model::Severity::kWarn;
  std::vector<model::CheckResult> checks = EvaluatePolicy(policy, report);
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(checks[0].rule, "fail_on_findings");
  EXPECT_EQ(checks[0].outcome, model::CheckOutcome::kFail);
  EXPECT_DOUBLE_EQ(*checks[0].measured, 1.0);
  EXPECT_NE(checks[0].message.find("sync_tail_heavy"), std::string::npos);
  EXPECT_EQ(checks[1].rule, "findings_warn");
  EXPECT_EQ(checks[1].outcome, model::CheckOutcome::kFail);
  EXPECT_DOUBLE_EQ(*checks[1].measured, 1.0);
  policy.fail_on_codes = {"barrier_disabled"};
  EXPECT_EQ(EvaluatePolicy(policy, report)[0].outcome, model::CheckOutcome::kPass);
}

TEST(CheckRulesTest, ThePolicyAsksForEachProbeOnce) {
  Policy policy;
  policy.latency = {P99Under10ms()};
  policy.rates = {{.name = "floor", .spec = kWal, .min_ops_per_sec = 50}};
  policy.commits = {{.name = "a"}, {.name = "b"}};
  EXPECT_EQ(policy.ProbeSpecs().size(), 1u);
  EXPECT_EQ(policy.CommitConfigs().size(), 1u);
  EXPECT_FALSE(policy.NeedsInspect());
}

TEST(CheckRulesTest, MergingPresetsKeepsEachCodeAndFactOnce) {
  Policy a, b;
  a.fail_on_codes = {"barrier_disabled", "sync_noop_suspected"};
  a.facts = {Fact::kNotOverlay};
  a.source = "preset a";
  b.fail_on_codes = {"sync_noop_suspected", "overlay_volatile"};
  b.facts = {Fact::kNotOverlay, Fact::kNotNetworkFs};
  b.fail_on_severity = model::Severity::kWarn;
  b.probe_file_size = 22u << 20;
  b.source = "preset b";
  Merge(a, b);
  EXPECT_EQ(a.fail_on_codes.size(), 3u);
  EXPECT_EQ(a.facts.size(), 2u);
  EXPECT_EQ(a.fail_on_severity, model::Severity::kWarn);
  EXPECT_EQ(a.probe_file_size, 22u << 20);
  EXPECT_EQ(a.source, "preset a + preset b");
}

// One companion load runs for a merged policy: the heavier of the two, never a mix of both.
TEST(CheckRulesTest, MergingKeepsTheHeavierCompanionSyncs) {
  Policy a, b, none;
  a.companion_syncs_per_sec = 7;
  a.companion_sync_bytes = 36 * 1024;
  b.companion_syncs_per_sec = 50;
  b.companion_sync_bytes = 4096;
  Merge(a, none);
  EXPECT_DOUBLE_EQ(a.companion_syncs_per_sec, 7);
  EXPECT_EQ(a.companion_sync_bytes, 36u * 1024);
  Merge(none, a);
  EXPECT_DOUBLE_EQ(none.companion_syncs_per_sec, 7);
  Merge(b, a);
  EXPECT_DOUBLE_EQ(b.companion_syncs_per_sec, 7);
  EXPECT_EQ(b.companion_sync_bytes, 36u * 1024);
}

}  // namespace
}  // namespace durprobe::gate
