#include "platform/crash_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <set>

namespace durprobe::platform {
namespace {

constexpr std::uint32_t kTornBlock = 4096;

// A generator whose numbers are the same on every standard library (the <random> distributions
// are not): splitmix64.
class Repeatable {
 public:
  explicit Repeatable(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::size_t Below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(Next() % n); }

 private:
  std::uint64_t state_;
};

// "0-57,59,61-63" for sorted indexes.
std::string Ranges(const std::vector<std::size_t>& sorted) {
  std::string text;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    if (!text.empty()) text += ",";
    text += j == i ? fmt::format("{}", sorted[i]) : fmt::format("{}-{}", sorted[i], sorted[j]);
    i = j + 1;
  }
  return text;
}

// A random non-empty subset of [begin, end), sorted.
std::vector<std::size_t> Subset(Repeatable& random, std::size_t begin, std::size_t end) {
  std::vector<std::size_t> chosen;
  while (chosen.empty()) {
    for (std::size_t w = begin; w < end; ++w) {
      if (random.Next() & 1) chosen.push_back(w);
    }
  }
  return chosen;
}

// What a state puts on the disk, and when the power went: equal keys are the same test. The
// writes applied are those before its flush, then the ones it keeps; a kept write that carries
// on from the writes before (and is whole) joins them, so "flush 3 + writes 7,8" and "flush 4"
// over a log whose flush 3 came after write 8 are the same disk.
struct StateKey {
  std::size_t cut = 0, prefix = 0;
  std::vector<std::size_t> rest, torn;
  auto operator<=>(const StateKey&) const = default;
};

StateKey KeyOf(const CrashLog& log, const CrashStateSpec& spec) {
  StateKey key;
  key.cut = spec.CutBefore();
  key.prefix = spec.after_flush == 0 ? 0 : log.WritesBeforeFlush(spec.after_flush - 1);
  key.torn = spec.torn;
  std::sort(key.torn.begin(), key.torn.end());
  std::vector<std::size_t> kept = spec.kept;
  std::sort(kept.begin(), kept.end());
  for (std::size_t w : kept) {
    if (w < key.prefix) continue;
    const bool torn = std::binary_search(key.torn.begin(), key.torn.end(), w);
    if (w == key.prefix && key.rest.empty() && !torn) {
      ++key.prefix;
    } else {
      key.rest.push_back(w);
    }
  }
  return key;
}

}  // namespace

const char* CacheModeName(CacheMode mode) {
  switch (mode) {
    case CacheMode::kHonest:
      return "honest";
    case CacheMode::kIgnoresFlush:
      return "ignores-flush";
    case CacheMode::kTorn:
      return "torn";
  }
  return "honest";
}

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
      // Flushes with no write between them leave the same disk: one crash point, the first
      // of them (a cut before it returned). How many the kernel sends in a row (it merges
      // flushes that overlap) varies with timing; the points do not. A commit acknowledged
      // between them is held to the next point, whose disk has its writes.
      if (log.events.empty() || log.events.back().kind != CrashEvent::kFlush) {
        log.flushes.push_back(log.events.size());
        log.events.push_back({CrashEvent::kFlush, 0, 0, data_at});
      }
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
      return Status::InvalidArgument(fmt::format(
          "crash state tears write {}: not one of the writes it keeps after its flush", w));
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

std::vector<CrashStateSpec> ChooseStates(const CrashLog& log, CacheMode mode,
                                         std::size_t max_states, std::uint64_t seed) {
  std::vector<CrashStateSpec> states;
  if (max_states == 0) return states;
  const std::size_t flushes = log.flushes.size();
  // The flush points: every one, or max_states of them spread evenly, the last among them.
  std::vector<std::size_t> points;
  if (flushes + 1 <= max_states) {
    for (std::size_t k = 0; k <= flushes; ++k) points.push_back(k);
  } else {
    for (std::size_t i = 0; i < max_states; ++i) {
      points.push_back(max_states == 1 ? flushes : i * flushes / (max_states - 1));
    }
  }
  std::set<StateKey> seen;
  for (std::size_t k : points) {
    states.push_back({k});
    seen.insert(KeyOf(log, states.back()));
  }
  // Around each point, what the cache held: the writes from that flush to the next.
  struct Window {
    std::size_t flush, begin, end;
  };
  std::vector<Window> windows;
  for (std::size_t k : points) {
    std::size_t begin = k == 0 ? 0 : log.WritesBeforeFlush(k - 1);
    std::size_t end = log.WritesBeforeFlush(k);
    if (end > begin) windows.push_back({k, begin, end});
  }
  // A subset drawn twice is the same disk: it is drawn again, up to 20 tries a state, so the
  // states are distinct as long as the cache windows hold that many.
  Repeatable random(seed);
  const std::size_t tries = 20 * max_states;
  for (std::size_t i = 0; states.size() < max_states && !windows.empty() && i < tries; ++i) {
    const Window& w = windows[i % windows.size()];
    CrashStateSpec spec{w.flush};
    if (mode == CacheMode::kIgnoresFlush) {
      // Everything up to the next flush, less a few of the most recent writes.
      spec.after_flush = 0;
      spec.cut_before = w.flush;
      std::size_t recent = std::min<std::size_t>(64, w.end);
      std::vector<bool> dropped(w.end, false);
      std::size_t drops = 1 + random.Below(std::min<std::size_t>(8, recent));
      for (std::size_t d = 0; d < drops; ++d) dropped[w.end - 1 - random.Below(recent)] = true;
      for (std::size_t x = 0; x < w.end; ++x) {
        if (!dropped[x]) spec.kept.push_back(x);
      }
    } else {
      spec.kept = Subset(random, w.begin, w.end);
      if (mode == CacheMode::kTorn) spec.torn = {spec.kept[random.Below(spec.kept.size())]};
    }
    if (!seen.insert(KeyOf(log, spec)).second) continue;
    states.push_back(std::move(spec));
  }
  return states;
}

std::string DescribeState(const CrashStateSpec& spec) {
  std::string text = fmt::format("flush {}", spec.after_flush);
  std::vector<std::size_t> kept = spec.kept, torn = spec.torn;
  std::sort(kept.begin(), kept.end());
  std::sort(torn.begin(), torn.end());
  if (!kept.empty()) text += " + writes " + Ranges(kept);
  if (!torn.empty()) text += " (torn " + Ranges(torn) + ")";
  if (spec.cut_before) text += fmt::format("; cut before flush {}", *spec.cut_before);
  return text;
}

namespace {

// Reads "N" or "N-M,K" at the front of text, appending each index; false when malformed.
bool ReadNumber(std::string_view& text, std::size_t& n) {
  std::size_t used = 0;
  n = 0;
  while (used < text.size() && text[used] >= '0' && text[used] <= '9' && used < 18) {
    n = n * 10 + static_cast<std::size_t>(text[used] - '0');
    ++used;
  }
  if (used == 0 || (used < text.size() && text[used] >= '0' && text[used] <= '9')) return false;
  text.remove_prefix(used);
  return true;
}

bool ReadRanges(std::string_view& text, std::vector<std::size_t>& out) {
  for (;;) {
    std::size_t first = 0, last = 0;
    if (!ReadNumber(text, first)) return false;
    last = first;
    if (!text.empty() && text.front() == '-') {
      text.remove_prefix(1);
      if (!ReadNumber(text, last) || last < first || last - first > (1u << 24)) return false;
    }
    for (std::size_t i = first; i <= last; ++i) out.push_back(i);
    if (text.empty() || text.front() != ',') return true;
    text.remove_prefix(1);
  }
}

bool Consume(std::string_view& text, std::string_view word) {
  if (text.substr(0, word.size()) != word) return false;
  text.remove_prefix(word.size());
  return true;
}

}  // namespace

Result<CrashStateSpec> ParseStateDescription(std::string_view text) {
  const std::string_view whole = text;
  auto bad = [&whole](std::string_view rest) {
    return Status::InvalidArgument(
        fmt::format("crash state '{}': cannot read '{}' (a state reads 'flush 3 + writes "
                    "17,19-21 (torn 19)')",
                    whole, rest.empty() ? whole : rest));
  };
  CrashStateSpec spec;
  if (!Consume(text, "flush ") || !ReadNumber(text, spec.after_flush)) return bad(text);
  if (Consume(text, " + writes ")) {
    if (!ReadRanges(text, spec.kept)) return bad(text);
    if (Consume(text, " (torn ")) {
      if (!ReadRanges(text, spec.torn) || !Consume(text, ")")) return bad(text);
    }
  }
  if (Consume(text, "; cut before flush ")) {
    std::size_t cut = 0;
    if (!ReadNumber(text, cut)) return bad(text);
    spec.cut_before = cut;
  }
  if (!text.empty()) return bad(text);
  return spec;
}

}  // namespace durprobe::platform
