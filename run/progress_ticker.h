// Keeps the progress line moving during a long item (a 2 s SQLite configuration, a workload):
// a thread of its own that calls Progress::Tick at an interval until stopped. It measures
// nothing and prints nothing itself; SIGINT and SIGTERM stay with the measuring thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "run/progress.h"

namespace durprobe::run {

class ProgressTicker {
 public:
  // interval_ns 0 starts no thread (no listener asked for ticks).
  ProgressTicker(Progress& progress, std::uint64_t interval_ns);
  ~ProgressTicker() { Stop(); }
  ProgressTicker(const ProgressTicker&) = delete;
  ProgressTicker& operator=(const ProgressTicker&) = delete;
  // Wakes the thread and waits for it: no Tick after this returns. Idempotent.
  void Stop();

 private:
  void Loop(Progress& progress, std::chrono::nanoseconds interval);

  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace durprobe::run
