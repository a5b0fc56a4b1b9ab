#include "run/progress.h"

#include <gtest/gtest.h>

#include "tests/support/fault_platform.h"

namespace durprobe::run {
namespace {

TEST(ProgressTest, EstimateIsThePlanUntilSomethingFinishes) {
  EXPECT_EQ(EstimateRemaining(10'000, 0, 0), 10'000u);
}

TEST(ProgressTest, EstimateScalesWhatIsLeftByThePaceSoFar) {
  // Half the plan done in a quarter of its planned time: the rest should go as fast.
  EXPECT_EQ(EstimateRemaining(10'000, 5'000, 1'250), 1'250u);
  // Twice as slow as planned.
  EXPECT_EQ(EstimateRemaining(10'000, 5'000, 10'000), 10'000u);
}

TEST(ProgressTest, NothingLeftWhenThePlanIsDone) {
  EXPECT_EQ(EstimateRemaining(10'000, 10'000, 99), 0u);
}

TEST(ProgressTest, WhileAnItemRunsTheEstimateCountsDown) {
  // 10 s planned, 4 s done in 4 s, the current item planned at 2 s: 6 s left at its start.
  EXPECT_EQ(EstimateWhileRunning(10, 4, 4, 2, 0), 6u);
  EXPECT_EQ(EstimateWhileRunning(10, 4, 4, 2, 1), 5u);
  // Past its plan the item holds the estimate at what comes after it, never below.
  EXPECT_EQ(EstimateWhileRunning(10, 4, 4, 2, 2), 4u);
  EXPECT_EQ(EstimateWhileRunning(10, 4, 4, 2, 30), 4u);
  // The last item counts down to zero.
  EXPECT_EQ(EstimateWhileRunning(10, 8, 8, 2, 1), 1u);
  EXPECT_EQ(EstimateWhileRunning(10, 8, 8, 2, 5), 0u);
}

class Events : public model::RunListener {
 public:
  void Progress(const model::ProgressEvent& e) override { seen.push_back(e); }
  void ProgressTick(const model::ProgressEvent& e) override { ticks.push_back(e); }
  std::vector<model::ProgressEvent> seen, ticks;
};

TEST(ProgressTest, AnnouncesEachStartWithItsIndexAndTheTotal) {
  platform::FaultPlatform p(platform::Default());
  Events events;
  Progress progress(p, events);
  progress.Expect(100);
  progress.Expect(100);
  progress.Start("probe", "a", 100);
  progress.Start("sqlite", "b", 100);
  progress.Finish();
  ASSERT_EQ(events.seen.size(), 2u);
  EXPECT_EQ(events.seen[0].index, 0u);
  EXPECT_EQ(events.seen[1].index, 1u);
  EXPECT_EQ(events.seen[1].total, 2u);
  EXPECT_EQ(events.seen[1].phase, "sqlite");
  EXPECT_EQ(events.seen[1].item, "b");
  EXPECT_EQ(progress.started(), 2u);
}

}  // namespace
}  // namespace durprobe::run

namespace durprobe::run {
namespace {

TEST(ProgressTest, ATickRepeatsTheRunningItemWithTheTimeBroughtUpToNow) {
  platform::FaultPlatform p(platform::Default());
  p.UseFakeClock();
  Events events;
  Progress progress(p, events);
  progress.Expect(4'000'000'000);
  progress.Expect(6'000'000'000);
  progress.Tick();  // nothing runs yet
  EXPECT_TRUE(events.ticks.empty());
  progress.Start("sqlite", "/d: WAL/FULL", 4'000'000'000);
  p.AdvanceClock(1'000'000'000);
  progress.Tick();
  p.AdvanceClock(1'000'000'000);
  progress.Tick();
  ASSERT_EQ(events.ticks.size(), 2u);
  for (const model::ProgressEvent& t : events.ticks) {
    EXPECT_EQ(t.phase, "sqlite");
    EXPECT_EQ(t.item, "/d: WAL/FULL");
    EXPECT_EQ(t.index, 0u);
    EXPECT_EQ(t.total, 2u);
  }
  EXPECT_EQ(events.ticks[0].elapsed_ns, 1'000'000'000u);
  EXPECT_EQ(events.ticks[1].elapsed_ns, 2'000'000'000u);
  EXPECT_EQ(events.ticks[0].remaining_ns, 9'000'000'000u);
  EXPECT_EQ(events.ticks[1].remaining_ns, 8'000'000'000u);
  EXPECT_EQ(events.seen.size(), 1u);  // a tick is not a new item
  progress.Finish();
  progress.Tick();  // nothing runs any more
  EXPECT_EQ(events.ticks.size(), 2u);
}

}  // namespace
}  // namespace durprobe::run
