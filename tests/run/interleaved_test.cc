// compare's rounds through the platform seam (a FaultPlatform on a fake clock): samples of each
// probe merge across rounds; a probe that fails in one round keeps its earlier samples, reports
// the failure and is not run again on that path.
#include <gtest/gtest.h>

#include <cerrno>

#include "explain/compare_analysis.h"
#include "run/executor.h"
#include "tests/run/fake_probe_plan.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::run {
namespace {


class ComparePlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_.UseFakeClock();
    fake_.AddSyncLatency(2 * kMs);
    plan_ = FakeProbePlan({a_.path(), b_.path()});
    plan_.schedule = Schedule::kInterleaved;
  }

  platform::FaultPlatform fake_{platform::Default()};
  testing_support::TempDir a_, b_;
  Plan plan_;
};

TEST_F(ComparePlanTest, SamplesMergeAcrossRounds) {
  plan_.rounds = 3;
  Execution ex = Execute(fake_, plan_);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  ASSERT_EQ(ex.report.targets.size(), 2u);
  for (const model::Target& t : ex.report.targets) {
    ASSERT_EQ(t.probes.size(), 1u);
    const probes::ProbeResult& r = t.probes[0];
    EXPECT_EQ(r.outcome, probes::Outcome::kOk) << r.reason;
    EXPECT_EQ(r.ops, 15u);  // 5 per round
    EXPECT_DOUBLE_EQ(r.seconds, 15 * 2e-3);
    EXPECT_EQ(r.sync_latency.p50, 2 * kMs);
  }
  // Per path and round: setup's fsync and 5 timed syncs; and the reference probe on each path
  // before each round and after the last (setup's fsync, 2 warm-up and 40 timed syncs).
  EXPECT_EQ(fake_.sync_calls(), 2 * 3 * 6 + 2 * (3 + 1) * kReferenceSyncs);
  for (const model::Target& t : ex.report.targets) EXPECT_EQ(t.reference.size(), 4u);
  ASSERT_EQ(explain::CompareVerdicts(ex.report.targets).size(), 1u);
  EXPECT_EQ(explain::CompareVerdicts(ex.report.targets)[0].path, b_.path());
}

TEST_F(ComparePlanTest, AProbeFailingInALaterRoundKeepsItsSamplesAndIsNotRerun) {
  plan_.rounds = 3;
  // Round 1 takes 12 syncs (6 per path) after a reference sample on each path; in round 2, after
  // the two samples, the first path's setup fsync passes and its first timed fdatasync fails, then
  // every sync fails (the second path's setup, and each later sample's setup).
  const int round = 2 * kReferenceSyncs + 12;
  fake_.FailSyncs(EIO, /*after_calls=*/round + 2 * kReferenceSyncs + 1);
  Execution ex = Execute(fake_, plan_);
  ASSERT_EQ(ex.report.targets.size(), 2u);
  for (const model::Target& t : ex.report.targets) {
    const probes::ProbeResult& r = t.probes[0];
    EXPECT_EQ(r.outcome, probes::Outcome::kError) << t.path;
    EXPECT_NE(r.reason.find("Input/output error"), std::string::npos) << r.reason;
    EXPECT_EQ(r.ops, 5u) << t.path;  // round 1's samples, nothing after the failure
  }
  // Round 3 runs neither probe: round 1, round 2's samples, the first path's 2 and the second
  // path's failed setup sync; then round 3's and the end's samples fail at their setup sync.
  EXPECT_EQ(fake_.sync_calls(), round + 2 * kReferenceSyncs + 3 + 2 + 2);
}

}  // namespace
}  // namespace durprobe::run
