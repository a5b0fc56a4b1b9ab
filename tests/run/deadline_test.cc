// The budget's deadlines (run/deadline.h) on a fake clock: each phase's share of the time left,
// the cut of a probe's limits, and a whole probe run on syncs that each take 200 ms of fake time,
// which must end within its budget plus the probe in flight and list what it left out.
#include "run/deadline.h"

#include <gtest/gtest.h>

#include <string>

#include "model/labels.h"
#include "run/executor.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::run {
namespace {

constexpr std::uint64_t kS = 1'000'000'000;

TEST(TimelineTest, EachPhaseGetsItsShareOfTheTimeLeft) {
  platform::FaultPlatform clock(platform::Default());
  clock.UseFakeClock();
  Timeline t(clock, 10 * kS);
  EXPECT_EQ(t.Left(), 10 * kS);  // before any phase: the run's own deadline
  t.StartPhase(1, 3);            // a quarter of what is planned
  EXPECT_EQ(t.Left(), 10 * kS / 4);
  clock.AdvanceClock(3 * kS);  // the phase overran by half a second
  EXPECT_TRUE(t.Spent());
  EXPECT_EQ(t.Left(), 0u);
  t.StartPhase(2, 1);  // two thirds of the 7 s left
  EXPECT_EQ(t.Left(), 7 * kS * 2 / 3);
  EXPECT_FALSE(t.Spent());
  t.StartPhase(1, 0);  // the last phase: everything left, never past the run's deadline
  EXPECT_EQ(t.Left(), 7 * kS);
  clock.AdvanceClock(8 * kS);
  t.StartPhase(1, 0);
  EXPECT_TRUE(t.Spent());
  EXPECT_EQ(t.DeadlineNs(), 1 * kS + 10 * kS);
}

// A reserve of operations (run/flush_counting.h) may start a probe after its phase's deadline,
// never after the run's: RunSpent reads the run's.
TEST(TimelineTest, ThePhaseCanBeSpentBeforeTheRun) {
  platform::FaultPlatform clock(platform::Default());
  clock.UseFakeClock();
  Timeline t(clock, 10 * kS);
  EXPECT_EQ(t.RunDeadlineNs(), clock.NowNanos() + 10 * kS);
  t.StartPhase(1, 1);
  clock.AdvanceClock(6 * kS);
  EXPECT_TRUE(t.Spent());
  EXPECT_FALSE(t.RunSpent());
  clock.AdvanceClock(4 * kS);
  EXPECT_TRUE(t.RunSpent());
  Timeline none(clock, 0);
  EXPECT_EQ(none.RunDeadlineNs(), 0u);
  clock.AdvanceClock(1000 * kS);
  EXPECT_FALSE(none.RunSpent());
}

TEST(TimelineTest, NoBudgetAndFixedWorkHaveNoDeadline) {
  platform::FaultPlatform clock(platform::Default());
  clock.UseFakeClock();
  Timeline none(clock, 0);
  none.StartPhase(1, 1);
  clock.AdvanceClock(1000 * kS);
  EXPECT_FALSE(none.Spent());
  EXPECT_EQ(none.Left(), kNoDeadline);
  EXPECT_EQ(none.DeadlineNs(), 0u);
  Timeline budgeted(clock, kS);
  budgeted.StartPhase(kNoDeadline, 0);  // --commits N
  clock.AdvanceClock(10 * kS);
  EXPECT_FALSE(budgeted.Spent());
  EXPECT_EQ(budgeted.DeadlineNs(), 0u);
}

TEST(TimelineTest, CutToKeepsTheRuleWithinWhatIsLeft) {
  probes::StopRule rule;
  rule.max_ns = 2 * kS;
  rule.min_ns = kS;
  rule.warmup_ns = 50'000'000;
  probes::StopRule cut = CutTo(rule, 300'000'000);
  EXPECT_EQ(cut.max_ns, 300'000'000u);
  EXPECT_EQ(cut.min_ns, 300'000'000u);
  EXPECT_EQ(cut.warmup_ns, 50'000'000u);
  probes::StopRule none = CutTo(rule, 0);  // past the deadline: one operation, no warm-up
  EXPECT_EQ(none.max_ns, 0u);
  EXPECT_EQ(none.warmup_ns, 0u);
  EXPECT_EQ(CutTo(rule, kNoDeadline).max_ns, 2 * kS);
}

TEST(TimelineTest, StepSharesLeaveRoomForTheFixedCostTheStepsShow) {
  platform::FaultPlatform clock(platform::Default());
  clock.UseFakeClock();
  Timeline t(clock, 10 * kS);
  StepShares shares(clock, t, 4);
  EXPECT_EQ(shares.Share(), 10 * kS / 4);  // nothing shown yet: an even share
  clock.AdvanceClock(3 * kS);              // the first step timed 2 s and cost 1 s more
  shares.Done(2 * kS);
  // 7 s left for 3 steps, each expected to cost 1 s beyond what it times: 4 s / 3.
  EXPECT_EQ(shares.Share(), (7 * kS - 3 * kS) / 3);
  clock.AdvanceClock(6 * kS);  // a slow second step: 1 s left, under three steps' fixed cost
  shares.Done(0);
  EXPECT_EQ(shares.Share(), 0u);  // the rest run one operation each
  Timeline none(clock, 0);
  EXPECT_EQ(StepShares(clock, none, 3).Share(), kNoDeadline);
}

TEST(TimelineTest, AStepOfSeveralSharesGetsThatManyShares) {
  platform::FaultPlatform clock(platform::Default());
  clock.UseFakeClock();
  Timeline t(clock, 10 * kS);
  StepShares shares(clock, t, 5);  // a step of three shares and two of one
  EXPECT_EQ(shares.Share(3), 10 * kS / 5 * 3);
  clock.AdvanceClock(6 * kS);
  shares.Done(6 * kS, 3);
  EXPECT_EQ(shares.Share(), 4 * kS / 2);  // two shares left, no fixed cost shown
  EXPECT_EQ(shares.Share(3), 4 * kS);     // never more than the shares still to run
}

// A probe plan on dir of budget_ns, each probe's share max_ns = budget_ns / parts, for check
// (no SQLite after the probes: a reserve may last until the run's deadline) or probe.
Plan ProbesOnly(const std::string& command, const std::string& dir, std::uint64_t budget_ns,
                std::uint64_t parts) {
  Plan plan;
  plan.command = command;
  plan.paths = {dir};
  plan.run_probes = true;
  plan.budget_ns = budget_ns;
  plan.probes.op_options.file_size = 64 << 10;
  plan.probes.rule.max_ns = budget_ns / parts;
  return plan;
}

TEST(TimelineTest, AReserveGetsItsPartOfTheTimeToItsDeadline) {
  platform::FaultPlatform clock(platform::Default());
  clock.UseFakeClock();
  Timeline t(clock, 10 * kS);
  StepShares shares(clock, t, 4);
  const std::uint64_t until = clock.NowNanos() + 8 * kS;
  EXPECT_EQ(shares.ReserveUntil(until), clock.NowNanos() + 2 * kS);  // 8 s for four steps
  EXPECT_EQ(shares.ReserveUntil(until, 2), clock.NowNanos() + 4 * kS);
  clock.AdvanceClock(5 * kS);  // the first step's reserve ran long
  shares.Done(5 * kS);
  EXPECT_EQ(shares.ReserveUntil(until), clock.NowNanos() + kS);  // 3 s left for three
  EXPECT_EQ(shares.ReserveUntil(until, 9), until);  // never past the deadline
  EXPECT_EQ(shares.ReserveUntil(0), 0u);            // no limit stays none
  clock.AdvanceClock(4 * kS);
  EXPECT_EQ(shares.ReserveUntil(until), until);  // past it: the loop ends its reserve at once
}

// The top-up's parts (run/path_by_path.cc) and StepShares::ReserveUntil cut time alike.
TEST(TimelineTest, PartUntilCutsTheTimeLeftIntoEqualParts) {
  EXPECT_EQ(PartUntil(10, 70, 3), 30u);
  EXPECT_EQ(PartUntil(10, 70, 3, 2), 50u);
  EXPECT_EQ(PartUntil(10, 70, 3, 5), 70u);  // never past the end
  EXPECT_EQ(PartUntil(10, 70, 1), 70u);
  EXPECT_EQ(PartUntil(10, 0, 3), 0u);  // no limit stays none
  EXPECT_EQ(PartUntil(80, 70, 3), 70u);  // a time already past is kept
  EXPECT_EQ(PartUntil(10, 70, 0), 70u);  // no parts: the whole
}

// Four probes that each keep check's p99 reserve (probes::kTailBoundOps operations) on syncs of
// 10 ms: the first once kept its reserve until the run's deadline and the other three were not
// measured at all; each now reserves only its part of the time left, so all four are measured.
TEST(DeadlineRunTest, OneProbesReserveLeavesTheOthersTheirPart) {
  testing_support::TempDir dir;
  platform::FaultPlatform slow(platform::Default());
  slow.UseFakeClock();
  slow.AddSyncLatency(10'000'000);
  Plan plan = ProbesOnly("check", dir.path(), 3 * kS, 8);
  plan.probes.rule.min_ops = 100'000;  // identical fake syncs would converge at once
  for (std::uint64_t size : {4096, 8192}) {
    plan.probes.specs.push_back({probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, size});
    plan.probes.specs.push_back({probes::Primitive::kFsync, probes::Pattern::kOverwrite, size});
  }
  plan.probes.reserves.assign(plan.probes.specs.size(), probes::kTailBoundOps);
  Execution ex = Execute(slow, plan);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const model::Target& t = ex.report.targets.at(0);
  ASSERT_EQ(t.probes.size(), plan.probes.specs.size());
  for (const probes::ProbeResult& p : t.probes) {
    EXPECT_GT(p.ops, 20u) << model::ProbeLabel(p.spec);  // a part, not one operation
    EXPECT_LT(p.ops, probes::kTailBoundOps) << model::ProbeLabel(p.spec);  // 3 s hold 300
  }
}

// The etcd preset's shape: a WAL probe paced at 150 syncs a second, whose 367 reserved
// operations take 2.4 s, before two quicker probes. Its first part of the time (a third of 5 s)
// holds 250; the others meet theirs in 0.73 s each, and the top-up gives it the time they left.
TEST(DeadlineRunTest, AProbeShortOfItsReserveIsToppedUpWithTheTimeLeftOver) {
  testing_support::TempDir dir;
  platform::FaultPlatform fake(platform::Default());
  fake.UseFakeClock();
  fake.AddSyncLatency(2'000'000);  // the quick probes converge at their 367th, after 0.73 s
  Plan plan = ProbesOnly("check", dir.path(), 5 * kS, 4);
  probes::ProbeSpec wal{probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096};
  wal.paced_per_sec = 150;
  plan.probes.specs = {wal,
                       {probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 8192},
                       {probes::Primitive::kFsync, probes::Pattern::kOverwrite, 4096}};
  plan.probes.reserves.assign(plan.probes.specs.size(), probes::kTailBoundOps);
  Execution ex = Execute(fake, plan);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const model::Target& t = ex.report.targets.at(0);
  ASSERT_EQ(t.probes.size(), plan.probes.specs.size());
  for (const probes::ProbeResult& p : t.probes) {
    EXPECT_GE(p.ops, probes::kTailBoundOps) << model::ProbeLabel(p.spec);
  }
  EXPECT_EQ(t.probes[0].spec.paced_per_sec, 150u);  // in the plan's order, the top-up merged in
}

TEST(DeadlineRunTest, SlowSyncsEndAProbeRunAtItsBudgetWithTheRestListed) {
  testing_support::TempDir dir;
  platform::FaultPlatform slow(platform::Default());
  slow.UseFakeClock();
  slow.AddSyncLatency(200'000'000);  // every sync 200 ms of fake time
  Plan plan = ProbesOnly("probe", dir.path(), 2 * kS, 6);
  for (std::uint64_t size : {4096, 8192, 16384}) {
    plan.probes.specs.push_back({probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, size});
    plan.probes.specs.push_back({probes::Primitive::kFsync, probes::Pattern::kOverwrite, size});
  }
  const std::uint64_t start = slow.NowNanos();
  Execution ex = Execute(slow, plan);
  const std::uint64_t took = slow.NowNanos() - start;
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const model::Target& t = ex.report.targets.at(0);
  // The probe in flight at the deadline ends after one warm-up and one timed sync; its reference
  // sample before it holds a few more: a second past the budget at most, where the run without
  // a deadline took one probe's 333 ms and its syncs six times over.
  EXPECT_LE(took, plan.budget_ns + kS);
  ASSERT_FALSE(t.probes.empty());
  ASSERT_LT(t.probes.size(), plan.probes.specs.size());
  EXPECT_EQ(t.probes.size() + t.unfinished.size(), plan.probes.specs.size());
  for (const model::Unfinished& u : t.unfinished) {
    EXPECT_EQ(u.kind, model::UnfinishedKind::kProbe);
    EXPECT_EQ(u.reason, model::Unfinished::kBudget);
  }
  bool said = false;
  for (const model::Finding& f : t.findings) {
    if (f.code != "budget_spent") continue;
    said = true;
    EXPECT_NE(f.message.find("probes"), std::string::npos) << f.message;
    EXPECT_NE(f.message.find("--budget"), std::string::npos) << f.message;
  }
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace durprobe::run
