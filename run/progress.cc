#include "run/progress.h"

#include <algorithm>

namespace durprobe::run {

std::uint64_t EstimateRemaining(std::uint64_t planned_total_ns, std::uint64_t planned_done_ns,
                                std::uint64_t actual_done_ns) {
  if (planned_done_ns >= planned_total_ns) return 0;
  std::uint64_t left = planned_total_ns - planned_done_ns;
  if (planned_done_ns == 0) return left;
  double pace = double(actual_done_ns) / double(planned_done_ns);
  return static_cast<std::uint64_t>(double(left) * pace);
}

std::uint64_t EstimateWhileRunning(std::uint64_t planned_total_ns, std::uint64_t planned_done_ns,
                                   std::uint64_t actual_done_ns, std::uint64_t current_planned_ns,
                                   std::uint64_t in_item_ns) {
  std::uint64_t at_start = EstimateRemaining(planned_total_ns, planned_done_ns, actual_done_ns);
  std::uint64_t rest_total =
      planned_total_ns > current_planned_ns ? planned_total_ns - current_planned_ns : 0;
  std::uint64_t after = EstimateRemaining(rest_total, planned_done_ns, actual_done_ns);
  return std::max(at_start > in_item_ns ? at_start - in_item_ns : 0, after);
}

Progress::Progress(platform::Platform& platform, model::RunListener& listener)
    : platform_(platform), listener_(listener), start_ns_(platform.NowNanos()) {}

void Progress::Expect(std::uint64_t planned_ns) {
  std::lock_guard<std::mutex> lock(mu_);
  ++total_;
  planned_total_ns_ += planned_ns;
}

std::size_t Progress::started() const {
  std::lock_guard<std::mutex> lock(mu_);
  return started_;
}

void Progress::Finish() {
  std::lock_guard<std::mutex> lock(mu_);
  FinishLocked();
}

void Progress::FinishLocked() {
  if (!running_) return;
  running_ = false;
  planned_done_ns_ += current_planned_ns_;
  actual_done_ns_ += platform_.NowNanos() - current_start_ns_;
}

void Progress::Start(const std::string& phase, const std::string& item, std::uint64_t planned_ns) {
  model::ProgressEvent e;
  {
    std::lock_guard<std::mutex> lock(mu_);
    FinishLocked();
    std::uint64_t now = platform_.NowNanos();
    e.phase = phase;
    e.item = item;
    e.index = started_;
    e.total = total_ > started_ ? total_ : started_ + 1;
    e.elapsed_ns = now - start_ns_;
    e.remaining_ns = EstimateRemaining(planned_total_ns_, planned_done_ns_, actual_done_ns_);
    ++started_;
    running_ = true;
    current_ = e;
    current_start_ns_ = now;
    current_planned_ns_ = planned_ns;
  }
  // Outside the lock: a listener may take its time, and ticks must not wait on it.
  listener_.Progress(e);
}

void Progress::Tick() {
  model::ProgressEvent e;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!running_) return;
    std::uint64_t now = platform_.NowNanos();
    e = current_;
    e.elapsed_ns = now - start_ns_;
    e.remaining_ns = EstimateWhileRunning(planned_total_ns_, planned_done_ns_, actual_done_ns_,
                                          current_planned_ns_, now - current_start_ns_);
  }
  listener_.ProgressTick(e);
}

}  // namespace durprobe::run
