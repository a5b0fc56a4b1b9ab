#include "run/progress_ticker.h"

#include "platform/interrupt.h"
#include "platform/thread.h"

namespace durprobe::run {

ProgressTicker::ProgressTicker(Progress& progress, std::uint64_t interval_ns) {
  if (interval_ns == 0) return;
  // Without a thread (the OS refused one) the line just moves less often.
  Result<std::thread> t = platform::StartThread(
      [this, &progress, interval_ns] { Loop(progress, std::chrono::nanoseconds(interval_ns)); });
  if (t.ok()) thread_ = std::move(*t);
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
