// compare's rounds through the platform seam (a FaultPlatform on a fake clock): samples of each
// probe merge across rounds; a probe that fails in one round keeps its earlier samples, reports
// the failure and is not run again on that path.
#include <gtest/gtest.h>

#include <cerrno>

#include "platform/fault_platform.h"
#include "report/documents/compare_analysis.h"
#include "run/executor.h"
#include "tests/test_dirs.h"

namespace durprobe::run {
namespace {

constexpr std::uint64_t kMs = 1'000'000;

class ComparePlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_.UseFakeClock();
    fake_.AddSyncLatency(2 * kMs);
    plan_.paths = {a_.path(), b_.path()};
    plan_.schedule = Schedule::kInterleaved;
    plan_.run_probes = true;
    plan_.probes.specs = {{probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096}};
    plan_.probes.rule.warmup_ops = 0;
    plan_.probes.rule.max_ops = 5;
    plan_.probes.op_options.file_size = 1 << 20;
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
  for (const report::Target& t : ex.report.targets) {
    ASSERT_EQ(t.probes.size(), 1u);
    const probes::ProbeResult& r = t.probes[0];
    EXPECT_EQ(r.outcome, probes::Outcome::kOk) << r.reason;
    EXPECT_EQ(r.ops, 15u);  // 5 per round
    EXPECT_DOUBLE_EQ(r.seconds, 15 * 2e-3);
    EXPECT_EQ(r.sync_latency.p50, 2 * kMs);
  }
  // Per path and round: setup's fsync and 5 timed syncs.
  EXPECT_EQ(fake_.sync_calls(), 2 * 3 * 6);
  ASSERT_EQ(report::CompareVerdicts(ex.report.targets).size(), 1u);
  EXPECT_EQ(report::CompareVerdicts(ex.report.targets)[0].path, b_.path());
}

TEST_F(ComparePlanTest, AProbeFailingInALaterRoundKeepsItsSamplesAndIsNotRerun) {
  plan_.rounds = 3;
  // Round 1 takes 12 syncs (6 per path); in round 2 the first path's setup fsync passes and its
  // first timed fdatasync fails, then every sync fails (the second path's setup).
  fake_.FailSyncs(EIO, /*after_calls=*/13);
  Execution ex = Execute(fake_, plan_);
  ASSERT_EQ(ex.report.targets.size(), 2u);
  for (const report::Target& t : ex.report.targets) {
    const probes::ProbeResult& r = t.probes[0];
    EXPECT_EQ(r.outcome, probes::Outcome::kError) << t.path;
    EXPECT_NE(r.reason.find("Input/output error"), std::string::npos) << r.reason;
    EXPECT_EQ(r.ops, 5u) << t.path;  // round 1's samples, nothing after the failure
  }
  // Round 3 runs neither: 12 + the first path's 2 + the second path's failed setup sync.
  EXPECT_EQ(fake_.sync_calls(), 15);
}

}  // namespace
}  // namespace durprobe::run
