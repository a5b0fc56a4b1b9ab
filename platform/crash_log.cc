#include "platform/crash_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace durprobe::platform {
namespace {

constexpr std::uint32_t kTornBlock = 4096;

}  // namespace

std::size_t CrashLog::WritesBeforeFlush(std::size_t k) const {
  std::size_t end = k < flushes.size() ? flushes[k] : events.size();
  return static_cast<std::size_t>(
      std::count_if(events.begin(), events.begin() + static_cast<std::ptrdiff_t>(end),
                    [](const CrashEvent& e) { return e.kind == CrashEvent::kWrite; }));
}

Result<CrashLog> ParseCrashLog(std::string_view bytes) {
  CrashLog log;
  std::size_t at = 0;
  std::uint64_t expected = 0;
  while (bytes.size() - at >= sizeof(CrashLogHeader)) {
    CrashLogHeader h;
    std::memcpy(&h, bytes.data() + at, sizeof h);
    std::size_t data_at = at + sizeof h;
    if (h.sequence != expected) {
      return Status::Error(fmt::format("crash log record at byte {}: sequence {} where {} was due",
                                       at, h.sequence, expected));
    }
    if (h.kind == CrashEvent::kWrite) {
      if (bytes.size() - data_at < h.length) break;  // cut short by the kill: never acknowledged
      log.writes.push_back(log.events.size());
      log.events.push_back({CrashEvent::kWrite, h.offset, h.length, data_at});
      at = data_at + h.length;
    } else if (h.kind == CrashEvent::kFlush) {
      log.flushes.push_back(log.events.size());
      log.events.push_back({CrashEvent::kFlush, 0, 0, data_at});
      at = data_at;
    } else if (h.kind == CrashEvent::kCheckpoint) {
      // Everything before a checkpoint is in its base image.
      log.events.clear();
      log.writes.clear();
      log.flushes.clear();
      ++log.checkpoints;
      at = data_at;
    } else {
      return Status::Error(fmt::format("crash log record at byte {}: unknown kind {}", at, h.kind));
    }
    ++expected;
  }
  return log;
}

Result<std::vector<StateWrite>> StateWrites(const CrashLog& log, const CrashStateSpec& spec) {
  if (spec.after_flush > log.flushes.size()) {
    return Status::InvalidArgument(fmt::format("crash state after flush {}: the log has {} flushes",
                                               spec.after_flush, log.flushes.size()));
  }
  std::size_t before = spec.after_flush == 0 ? 0 : log.WritesBeforeFlush(spec.after_flush - 1);
  std::vector<bool> keep(log.writes.size(), false);
  std::vector<bool> torn(log.writes.size(), false);
  std::fill(keep.begin(), keep.begin() + static_cast<std::ptrdiff_t>(before), true);
  for (std::size_t w : spec.kept) {
    if (w >= log.writes.size()) {
      return Status::InvalidArgument(
          fmt::format("crash state keeps write {}: the log has {} writes", w, log.writes.size()));
    }
    keep[w] = true;
  }
  for (std::size_t w : spec.torn) {
    if (w >= log.writes.size() || !keep[w] || w < before) {
      return Status::InvalidArgument(
          fmt::format("crash state tears write {}: not one of the writes it keeps after its flush",
                      w));
    }
    torn[w] = true;
  }
  std::vector<StateWrite> out;
  for (std::size_t w = 0; w < log.writes.size(); ++w) {
    if (!keep[w]) continue;
    const CrashEvent& e = log.events[log.writes[w]];
    if (!torn[w]) {
      out.push_back({e.offset, e.length, e.data_at});
      continue;
    }
    for (std::uint32_t block = 0; block < e.length; block += kTornBlock) {
      std::uint32_t half = std::min(kTornBlock / 2, e.length - block);
      out.push_back({e.offset + block, half, e.data_at + block});
    }
  }
  return out;
}

std::string DescribeState(const CrashStateSpec& spec) {
  std::string text = fmt::format("flush {}", spec.after_flush);
  if (!spec.kept.empty()) text += fmt::format(" + writes {}", fmt::join(spec.kept, ","));
  if (!spec.torn.empty()) text += fmt::format(" (torn {})", fmt::join(spec.torn, ","));
  return text;
}

}  // namespace durprobe::platform
