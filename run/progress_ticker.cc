#include "run/progress_ticker.h"

#include "platform/interrupt.h"

namespace durprobe::run {

ProgressTicker::ProgressTicker(Progress& progress, std::uint64_t interval_ns) {
  if (interval_ns == 0) return;
  thread_ = std::thread(&ProgressTicker::Loop, this, std::ref(progress),
                        std::chrono::nanoseconds(interval_ns));
}

void ProgressTicker::Loop(Progress& progress, std::chrono::nanoseconds interval) {
  platform::BlockInterruptsInThisThread();
  std::unique_lock<std::mutex> lock(mu_);
  while (!wake_.wait_for(lock, interval, [this] { return stop_; })) {
    lock.unlock();
    progress.Tick();
    lock.lock();
  }
}

void ProgressTicker::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace durprobe::run
