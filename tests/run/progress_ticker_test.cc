// The ticker's thread: it ticks the running item while the run goes on, and never after Stop.
// Behaviour only: the test waits for ticks to arrive, it never measures how fast they come.
#include "run/progress_ticker.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "tests/support/fault_platform.h"

namespace durprobe::run {
namespace {

class TickCounter : public model::RunListener {
 public:
  void ProgressTick(const model::ProgressEvent& e) override {
    std::lock_guard<std::mutex> lock(mu_);
    ++ticks_;
    last_item_ = e.item;
    arrived_.notify_all();
  }
  // Waits until n ticks have arrived (true), or gives up after a minute (false).
  bool WaitFor(int n) {
    std::unique_lock<std::mutex> lock(mu_);
    return arrived_.wait_for(lock, std::chrono::minutes(1), [&] { return ticks_ >= n; });
  }
  int ticks() {
    std::lock_guard<std::mutex> lock(mu_);
    return ticks_;
  }
  std::string last_item() {
    std::lock_guard<std::mutex> lock(mu_);
    return last_item_;
  }

 private:
  std::mutex mu_;
  std::condition_variable arrived_;
  int ticks_ = 0;
  std::string last_item_;
};

TEST(ProgressTickerTest, TicksTheRunningItemUntilStopped) {
  platform::FaultPlatform p(platform::Default());
  p.UseFakeClock();
  TickCounter counter;
  Progress progress(p, counter);
  progress.Expect(1);
  progress.Start("workload", "/d: read", 1);
  ProgressTicker ticker(progress, 1'000'000);
  ASSERT_TRUE(counter.WaitFor(3));
  EXPECT_EQ(counter.last_item(), "/d: read");
  ticker.Stop();
  int after_stop = counter.ticks();
  progress.Finish();
  ticker.Stop();  // twice is fine
  EXPECT_EQ(counter.ticks(), after_stop);
}

TEST(ProgressTickerTest, NoIntervalNoThreadNoTicks) {
  platform::FaultPlatform p(platform::Default());
  TickCounter counter;
  Progress progress(p, counter);
  progress.Expect(1);
  progress.Start("probe", "a", 1);
  { ProgressTicker ticker(progress, 0); }
  EXPECT_EQ(counter.ticks(), 0);
}

TEST(ProgressTickerTest, TheDestructorStopsTheThread) {
  platform::FaultPlatform p(platform::Default());
  TickCounter counter;
  Progress progress(p, counter);
  progress.Expect(1);
  progress.Start("probe", "a", 1);
  {
    ProgressTicker ticker(progress, 1'000'000);
    ASSERT_TRUE(counter.WaitFor(1));
  }
  int after = counter.ticks();
  progress.Tick();  // the one tick this test makes itself
  EXPECT_EQ(counter.ticks(), after + 1);
}

}  // namespace
}  // namespace durprobe::run
