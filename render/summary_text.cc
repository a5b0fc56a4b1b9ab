#include "render/summary_text.h"

#include <fmt/format.h>

#include "text/units.h"

namespace durprobe::render {

std::string SettingText(const model::SummarySetting& s, bool with_ratio) {
  std::string text = fmt::format("{} {} commits/s", s.label, text::FormatRate(s.commits_per_sec));
  if (with_ratio && s.vs_default) {
    text += fmt::format(" ({} the default)", text::FormatRatio(*s.vs_default));
  }
  return text;
}

std::string SyncCostText(const model::PathSummary& s) {
  if (s.sync_probe.empty()) return "not measured (no sync probe ran)";
  auto p99 = [](const std::optional<double>& v) {
    return v ? text::FormatNanos(*v) : std::string("-");
  };
  std::string text = s.sync_probe + ": ";
  // Where the device alternates, the slow state's figures come first: the mixture's p50 can be
  // the fast state's while a large share of the time is spent in the slow one.
  if (s.sync_slow_state) {
    text += fmt::format(
        "in the device's slow state ({:.0f}% of the probe's time), the state to plan for: p50 "
        "{}, p99 {}; ",
        s.sync_slow_state->time_share * 100.0, text::FormatNanos(s.sync_slow_state->p50_ns),
        p99(s.sync_slow_state->p99_ns));
    if (s.sync_fast_state) {
      text += fmt::format(
          "in its fast state ({:.0f}%): p50 {}, p99 {}; ", s.sync_fast_state->time_share * 100.0,
          text::FormatNanos(s.sync_fast_state->p50_ns), p99(s.sync_fast_state->p99_ns));
    }
    text += "over both: ";
  }
  text += "p50 " + text::FormatNanos(s.sync_p50_ns.value_or(0)) + ", p99 " + p99(s.sync_p99_ns);
  if (s.synced_writes_per_sec) {
    text += fmt::format("; at most {} synced writes/s from one writer (measured)",
                        text::FormatRate(*s.synced_writes_per_sec));
  }
  return text;
}

}  // namespace durprobe::render
