#include "render/console/progress_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

#include "text/table.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

constexpr std::size_t kMaxLine = 110;   // fits a common terminal without wrapping
constexpr std::size_t kLeastItem = 12;  // narrower, the item says nothing: the line is cut instead

// The item in at most room columns, its front given up first: "PATH: what" keeps what runs and
// the path's last components (".../rootdir: DELETE/NORMAL x1 (2/5)").
std::string ItemFrom(const std::string& item, std::size_t room) {
  std::size_t width = text::DisplayWidth(item);
  if (width <= room) return item;
  std::size_t keep = room - 3;
  std::size_t start = item.size();
  for (std::size_t seen = 0; start > 0 && seen < keep;) {
    --start;
    if ((static_cast<unsigned char>(item[start]) & 0xC0) != 0x80) ++seen;
  }
  std::size_t slash = item.find('/', start);
  std::size_t colon = item.find(": ", start);
  if (colon != std::string::npos && slash < colon) start = slash;  // within the path only
  return "..." + item.substr(start);
}

}  // namespace

std::string FormatClock(std::uint64_t ns) {
  std::uint64_t s = (ns + 500'000'000) / 1'000'000'000;
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

std::string FormatProgress(const model::ProgressEvent& e, std::size_t max) {
  // One line on a terminal: a path in the item cannot move the cursor or end the line.
  std::string head =
      text::EscapeControlChars(fmt::format("[{} {}/{}] ", e.phase, e.index + 1, e.total));
  std::string item = text::EscapeControlChars(e.item);
  std::string tail =
      fmt::format("  {} elapsed, ~{} left", FormatClock(e.elapsed_ns), FormatClock(e.remaining_ns));
  std::size_t fixed = text::DisplayWidth(head) + text::DisplayWidth(tail);
  if (max > 0 && fixed + kLeastItem <= max) item = ItemFrom(item, max - fixed);
  std::string line = head + item + tail;
  if (max > 0 && text::DisplayWidth(line) > max) line = text::FirstColumns(line, max - 3) + "...";
  return line;
}

void ProgressLine::Draw(const model::ProgressEvent& event) {
  std::size_t max = columns_ > 10 ? std::min(kMaxLine, columns_ - 1) : kMaxLine;
  std::string line = FormatProgress(event, max);
  fmt::print(err_, "\r\x1b[K{}", line);
  err_.flush();
}

void ProgressLine::Progress(const model::ProgressEvent& event) {
  std::lock_guard<std::mutex> lock(mu_);
  Draw(event);
  shown_ = true;
  index_ = event.index;
}

void ProgressLine::ProgressTick(const model::ProgressEvent& event) {
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

void ProgressLog::Progress(const model::ProgressEvent& event) {
  fmt::print(err_, "{}\n", FormatProgress(event));
  err_.flush();
}

}  // namespace durprobe::render::console
