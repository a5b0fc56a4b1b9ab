// Progress on stderr. On a terminal, ProgressLine keeps one line up to date ("[sqlite 7/12]
// /data: WAL/FULL  0:14 elapsed, ~0:21 left") and clears it before anything else is printed;
// it asks for a tick every half second, so elapsed and the estimate move during a long item; with
// --verbose, ProgressLog writes one plain line per item instead (fit for a log file).
#pragma once

#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>

#include "model/run_events.h"

namespace durprobe::render::console {

// "[sqlite 7/12] /data: WAL/FULL  0:14 elapsed, ~0:21 left"; within max columns (0: any
// width) the item gives way first, from its front (".../data: WAL/FULL"), so the times stay.
std::string FormatProgress(const model::ProgressEvent& event, std::size_t max = 0);
// "0:07", "12:34", "1:02:03"
std::string FormatClock(std::uint64_t ns);

class ProgressLine : public model::RunListener {
 public:
  static constexpr std::uint64_t kTickNs = 500'000'000;
  // columns: the terminal's width (0 when unknown); the line stays one column narrower.
  explicit ProgressLine(std::ostream& err, std::uint64_t tick_ns = kTickNs, std::size_t columns = 0)
      : err_(err), tick_ns_(tick_ns), columns_(columns) {}
  void Progress(const model::ProgressEvent& event) override;
  std::uint64_t TickIntervalNs() const override { return tick_ns_; }
  // Redraws the line for the item it shows; nothing once the line was cleared for other output
  // (until the next item starts), nothing for an item that has already given way to the next.
  void ProgressTick(const model::ProgressEvent& event) override;
  // Nothing is printed while the run goes (the report is printed whole at its end): the line
  // stays up from item to item and goes when the run finishes.
  void RunFinished(const model::Report&) override { Clear(); }
  // Clears the line (also on interruption, before the final message).
  void Clear();

 private:
  void Draw(const model::ProgressEvent& event);

  std::ostream& err_;
  std::uint64_t tick_ns_;
  std::size_t columns_;
  std::mutex mu_;  // ticks arrive on the ticker's thread
  bool shown_ = false;
  std::size_t index_ = 0;  // the item shown
};

class ProgressLog : public model::RunListener {
 public:
  explicit ProgressLog(std::ostream& err) : err_(err) {}
  void Progress(const model::ProgressEvent& event) override;

 private:
  std::ostream& err_;
};

}  // namespace durprobe::render::console
