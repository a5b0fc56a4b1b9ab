#include "render/console/progress_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

#include "text/table.h"
#include "text/utf8.h"

namespace durprobe::report {
namespace {

constexpr std::size_t kMaxLine = 110;  // fits a common terminal without wrapping

}  // namespace

std::string FormatClock(std::uint64_t ns) {
  std::uint64_t s = (ns + 500'000'000) / 1'000'000'000;
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

std::string FormatProgress(const ProgressEvent& e) {
  // One line on a terminal: a path in the item cannot move the cursor or end the line.
  return EscapeControlChars(fmt::format("[{} {}/{}] {}  {} elapsed, ~{} left", e.phase, e.index + 1,
                                        e.total, e.item, FormatClock(e.elapsed_ns),
                                        FormatClock(e.remaining_ns)));
}

void ProgressLine::Draw(const ProgressEvent& event) {
  std::string line = FormatProgress(event);
  std::size_t max = columns_ > 10 ? std::min(kMaxLine, columns_ - 1) : kMaxLine;
  if (DisplayWidth(line) > max) line = FirstColumns(line, max - 3) + "...";
  fmt::print(err_, "\r\x1b[K{}", line);
  err_.flush();
}

void ProgressLine::Progress(const ProgressEvent& event) {
  std::lock_guard<std::mutex> lock(mu_);
  Draw(event);
  shown_ = true;
  index_ = event.index;
}

void ProgressLine::ProgressTick(const ProgressEvent& event) {
  std::lock_guard<std::mutex> lock(mu_);
  if (shown_ && event.index == index_) Draw(event);
}

void ProgressLine::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!shown_) return;
  fmt::print(err_, "\r\x1b[K");
  err_.flush();
  shown_ = false;
}

void ProgressLog::Progress(const ProgressEvent& event) {
  fmt::print(err_, "{}\n", FormatProgress(event));
  err_.flush();
}

}  // namespace durprobe::report
