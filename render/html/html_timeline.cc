// The timeline: the latency of flushes over the run, from the reference probe's samples, the probe
// of the same kind, and SQLite's own syncs per repetition, with the steps drift analysis found. All
// on one time axis, so a device that changed state is seen at the moment it did.
#include "render/html/html_timeline.h"

#include <fmt/format.h>

#include "analysis/drift.h"
#include "model/labels.h"
#include "render/html/html_page.h"
#include "render/html/html_probes.h"
#include "render/html/html_sqlite.h"
#include "render/html/html_text.h"
#include "text/units.h"

namespace durprobe::render::html {
namespace {

double Seconds(std::uint64_t ns) { return double(ns) / 1e9; }

std::string SecondsTick(double s) { return fmt::format("{:g} s", s); }

// The reference probe's samples: the level drift analysis reads (the mean) of each, at the moment
// it started.
svg::Series ReferenceLine(const model::Target& t) {
  svg::Series s{.name =
                    fmt::format("reference probe, {} (mean of each sample)", t.reference_probe)};
  for (const model::ReferenceSample& r : t.reference) {
    double x = Seconds(r.start_ns), y = analysis::ReferenceLevel(r);
    if (r.ops == 0 || y <= 0) continue;
    s.points.push_back({x, y});
    s.marks.push_back(
        {x, y,
         fmt::format("{:.1f} s, before {}: mean {}, p50 {} over {} operations", x, r.before,
                     text::FormatNanos(y), text::FormatNanos(double(r.p50_ns)), r.ops)});
  }
  return s;
}

// The probe measuring what the reference probe measures, window by window (100 ms each).
svg::Series SameProbeLine(const model::Target& t) {
  svg::Series s;
  for (const probes::ProbeResult& r : t.probes) {
    if (r.series.empty() || model::ProbeLabel(r.spec) != t.reference_probe) continue;
    s.name = fmt::format("probe {} (mean per window)", t.reference_probe);
    for (const probes::SeriesPoint& p : r.series) {
      if (p.mean_ns <= 0) continue;
      s.points.push_back({Seconds(p.start_ns), p.mean_ns});
    }
  }
  return s;
}

// SQLite's own syncs: the mean latency of the syncs each repetition made, at its midpoint. Every
// configuration that syncs feeds the same line: a sync is a flush whatever the configuration.
svg::Series SqliteSyncLine(const model::Target& t) {
  svg::Series s{.name = "SQLite's syncs (mean per repetition)"};
  for (const model::SqliteEntry& e : t.sqlite) {
    const auto& windows = e.result.repetition_windows;
    for (std::size_t i = 0; i < windows.size(); ++i) {
      const sqlite_bench::Repetition& w = windows[i];
      if (w.sync_calls == 0) continue;
      double x = MiddleSeconds(w);
      double y = double(w.sync_ns) / double(w.sync_calls);
      s.points.push_back({x, y});
      s.marks.push_back(
          {x, y,
           fmt::format("{:.1f} s, {} repetition {}: {} syncs, mean {}", x,
                       ConfigName(e.result, false), i + 1, w.sync_calls, text::FormatNanos(y))});
    }
  }
  return s;
}

// What drift analysis found, as marks where each step starts and as sentences for the caption.
svg::Series StepMarks(const std::vector<analysis::DriftSeries>& drifted, std::string& sentences) {
  svg::Series s{.name = "a step drift analysis found (new level)"};
  for (const analysis::DriftSeries& d : drifted) {
    for (const analysis::Step& step : d.steps) {
      double x = Seconds(step.at_ns);
      std::string text = fmt::format("{} at {:.1f} s: {} to {}", d.what, x,
                                     text::FormatNanos(step.before), text::FormatNanos(step.after));
      s.marks.push_back({x, step.after, text});
      sentences += (sentences.empty() ? "" : "; ") + text;
    }
  }
  return s;
}

}  // namespace

std::string TimelineSection(const model::Target& t, const std::string& id_prefix) {
  svg::LinePlot plot{
      .id = id_prefix + "-timeline",
      .title = "Flush latency over the run",
      .x = {.label = "seconds since the run started", .format = SecondsTick},
      .y = {.label = "latency (log scale)", .scale = svg::Scale::kLog, .format = NanosTick}};
  for (svg::Series s : {ReferenceLine(t), SameProbeLine(t), SqliteSyncLine(t)}) {
    if (s.points.size() >= 2) plot.series.push_back(std::move(s));
  }
  if (plot.series.empty()) return "";
  std::string steps;
  svg::Series marks = StepMarks(analysis::DriftedSeries(t), steps);
  if (!marks.marks.empty()) plot.series.push_back(std::move(marks));
  std::string caption =
      "Each line is a mean flush latency measured at a known moment of the run: the reference "
      "probe's short samples (before the probes, before each SQLite configuration, at the "
      "end), the same probe window by window, and the mean of the syncs SQLite itself made in "
      "each repetition. A steady device keeps them level; a step that they share is the device "
      "changing state (burst credits running out, a neighbour's I/O), not the configuration "
      "that happened to run then.";
  caption += steps.empty() ? " Drift analysis found no step beyond the noise."
                           : " Steps found: " + Escape(steps) + ".";
  return "<h3>Over the run</h3>\n" + Figure(svg::Render(plot), caption);
}

}  // namespace durprobe::render::html
