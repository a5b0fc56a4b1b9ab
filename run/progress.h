// Where a run is: items planned with their expected time, the item starting now, elapsed time and
// an estimate of what is left. Announces each start to the listener as a model::ProgressEvent,
// and, when asked (Tick, from the ticker's thread), the running item again with the time brought
// up to now.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include "model/run_events.h"
#include "platform/platform.h"

namespace durprobe::run {

// The estimate: what is still planned, scaled by how the finished items compared with their
// plan (adaptive probes stop early; a slow disk stretches fixed-count work). With nothing
// finished yet, the plan as it stands.
std::uint64_t EstimateRemaining(std::uint64_t planned_total_ns, std::uint64_t planned_done_ns,
                                std::uint64_t actual_done_ns);

// The estimate while an item runs, in_item_ns into it: the estimate at its start counted down,
// but never below the estimate for the items after it (an item that overruns its plan holds
// the estimate there instead of reaching zero early).
std::uint64_t EstimateWhileRunning(std::uint64_t planned_total_ns, std::uint64_t planned_done_ns,
                                   std::uint64_t actual_done_ns, std::uint64_t current_planned_ns,
                                   std::uint64_t in_item_ns);

class Progress {
 public:
  Progress(platform::Platform& platform, model::RunListener& listener);
  // Adds an item to the plan; call for every item before the first Start.
  void Expect(std::uint64_t planned_ns);
  // Finishes the previous item (if any) and announces this one.
  void Start(const std::string& phase, const std::string& item, std::uint64_t planned_ns);
  // Finishes the last item.
  void Finish();
  // Announces the running item again as a ProgressTick (same index, phase and item; elapsed and
  // estimate as of now); nothing between items or after Finish. Safe from another thread.
  void Tick();
  std::size_t started() const;

 private:
  void FinishLocked();

  platform::Platform& platform_;
  model::RunListener& listener_;
  mutable std::mutex mu_;  // Tick runs on the ticker's thread
  std::uint64_t start_ns_;
  std::size_t total_ = 0;
  std::size_t started_ = 0;
  std::uint64_t planned_total_ns_ = 0;
  std::uint64_t planned_done_ns_ = 0;
  std::uint64_t actual_done_ns_ = 0;
  bool running_ = false;
  model::ProgressEvent current_;  // the running item's start event
  std::uint64_t current_start_ns_ = 0;
  std::uint64_t current_planned_ns_ = 0;
};

}  // namespace durprobe::run
