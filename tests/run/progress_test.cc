#include "run/progress.h"

#include <gtest/gtest.h>

#include "platform/fault_platform.h"

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

class Events : public report::RunListener {
 public:
  void Progress(const report::ProgressEvent& e) override { seen.push_back(e); }
  std::vector<report::ProgressEvent> seen;
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
