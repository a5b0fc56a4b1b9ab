#include "run/progress.h"

namespace durprobe::run {

std::uint64_t EstimateRemaining(std::uint64_t planned_total_ns, std::uint64_t planned_done_ns,
                                std::uint64_t actual_done_ns) {
  if (planned_done_ns >= planned_total_ns) return 0;
  std::uint64_t left = planned_total_ns - planned_done_ns;
  if (planned_done_ns == 0) return left;
  double pace = double(actual_done_ns) / double(planned_done_ns);
  return static_cast<std::uint64_t>(double(left) * pace);
}

Progress::Progress(platform::Platform& platform, report::RunListener& listener)
    : platform_(platform), listener_(listener), start_ns_(platform.NowNanos()) {}

void Progress::Expect(std::uint64_t planned_ns) {
  ++total_;
  planned_total_ns_ += planned_ns;
}

void Progress::Finish() {
  if (!running_) return;
  running_ = false;
  planned_done_ns_ += current_planned_ns_;
  actual_done_ns_ += platform_.NowNanos() - current_start_ns_;
}

void Progress::Start(const std::string& phase, const std::string& item, std::uint64_t planned_ns) {
  Finish();
  std::uint64_t now = platform_.NowNanos();
  report::ProgressEvent e;
  e.phase = phase;
  e.item = item;
  e.index = started_;
  e.total = total_ > started_ ? total_ : started_ + 1;
  e.elapsed_ns = now - start_ns_;
  e.remaining_ns = EstimateRemaining(planned_total_ns_, planned_done_ns_, actual_done_ns_);
  listener_.Progress(e);
  ++started_;
  running_ = true;
  current_start_ns_ = now;
  current_planned_ns_ = planned_ns;
}

}  // namespace durprobe::run
