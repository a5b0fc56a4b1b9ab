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
  std::string text = s.sync_probe + ": p50 " + text::FormatNanos(s.sync_p50_ns.value_or(0));
  text += ", p99 " + (s.sync_p99_ns ? text::FormatNanos(*s.sync_p99_ns) : std::string("-"));
  if (s.synced_writes_per_sec) {
    text += fmt::format("; at most {} synced writes/s from one writer (measured)",
                        text::FormatRate(*s.synced_writes_per_sec));
  }
  if (s.sync_slow_state) {
    text += fmt::format(
        "; in the device's slow state ({:.0f}% of the probe's time): p50 {}, p99 {}, "
        "the state to plan for",
        s.sync_slow_state->time_share * 100.0, text::FormatNanos(s.sync_slow_state->p50_ns),
        s.sync_slow_state->p99_ns ? text::FormatNanos(*s.sync_slow_state->p99_ns)
                                  : std::string("-"));
  }
  return text;
}

}  // namespace durprobe::render
