#include "render/html/html_concurrency.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/percentiles.h"
#include "render/html/html_page.h"
#include "render/html/html_probes.h"
#include "render/html/html_text.h"
#include "render/html/svg_plot.h"
#include "text/units.h"

namespace durprobe::render::html {
namespace {

using probes::ConcurrencyResult;

bool Plotted(const ConcurrencyResult& r) {
  return r.outcome == probes::Outcome::kOk && r.aggregate_ops_per_sec > 0;
}

std::string ScalingPlot(const std::vector<ConcurrencyResult>& rows, const std::string& id) {
  std::vector<double> ticks;
  for (const ConcurrencyResult& r : rows) {
    if (std::find(ticks.begin(), ticks.end(), double(r.spec.writers)) == ticks.end()) {
      ticks.push_back(double(r.spec.writers));
    }
  }
  std::sort(ticks.begin(), ticks.end());
  svg::LinePlot plot{.id = id,
                     .title = "Aggregate synced operations per second by writers",
                     .x = {.label = "concurrent writers (log scale)",
                           .scale = svg::Scale::kLog,
                           .format = [](double v) { return fmt::format("{:.0f}", v); },
                           .ticks = ticks},
                     .y = {.label = "synced ops/s, all writers (log scale)",
                           .scale = svg::Scale::kLog,
                           .format = [](double v) { return text::FormatRate(v); }}};
  for (probes::WriterMode mode : probes::AllWriterModes()) {
    svg::Series s{.name = std::string(probes::NameOf(mode))};
    double one = 0;
    for (const ConcurrencyResult& r : rows) {
      if (r.spec.mode != mode || !Plotted(r)) continue;
      if (r.spec.writers == 1) one = r.aggregate_ops_per_sec;
      double x = r.spec.writers, y = r.aggregate_ops_per_sec;
      s.points.push_back({x, y});
      s.marks.push_back(
          {x, y,
           fmt::format("{} writers ({}): {} ops/s, sync p50 {}, p99 {}", r.spec.writers,
                       probes::NameOf(mode), text::FormatRate(y), text::NanosCell(r.latency.p50),
                       text::PercentileCell(model::P99(r.latency)))});
    }
    if (s.points.size() < 2) continue;
    if (mode == probes::WriterMode::kThreads && one > 0) {
      svg::Series ideal{.name = "ideal (threads at one writer x N)", .reference = true};
      for (double n : ticks) ideal.points.push_back({n, one * n});
      plot.series.push_back(std::move(ideal));
    }
    plot.series.push_back(std::move(s));
  }
  if (plot.series.empty()) return "";
  return Figure(svg::Render(plot),
                "Synced operations per second of all writers together. A flat line: concurrent "
                "syncs serialise (each waits for its own flush); a line along the ideal: the "
                "filesystem or device merges them.");
}

std::string RowsTable(const std::vector<ConcurrencyResult>& rows) {
  std::string out =
      "<table class=\"concurrency\">\n<thead><tr><th>mode</th><th>writers</th><th>primitive</th>"
      "<th>size</th><th>ops</th><th>aggregate ops/s</th><th>scaling</th><th>sync p50</th>"
      "<th>sync p99</th></tr></thead>\n<tbody>\n";
  for (const ConcurrencyResult& r : rows) {
    std::string lead = fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td>", probes::NameOf(r.spec.mode),
        r.spec.writers, probes::NameOf(r.spec.primitive), text::FormatBytes(r.spec.write_size));
    if (!Plotted(r)) {
      out += lead + fmt::format("<td colspan=\"5\">{}: {}</td></tr>\n", probes::NameOf(r.outcome),
                                Escape(r.reason));
      continue;
    }
    out += lead + fmt::format("<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                              r.ops, text::FormatRate(r.aggregate_ops_per_sec),
                              r.scaling > 0 ? text::FormatRatio(r.scaling) : "-",
                              text::NanosCell(r.latency.p50),
                              text::PercentileCell(model::P99(r.latency)));
  }
  return out + "</tbody>\n</table>\n";
}

std::string SerialBlock(const model::SerialVsConcurrent& s) {
  const probes::QueueDepthResult& q = s.concurrent;
  std::string out = "<h4>Serial versus concurrent</h4>\n<table class=\"serial\">\n";
  std::string concurrent = q.outcome == probes::Outcome::kOk
                               ? fmt::format("{}/s ({})", text::FormatRate(q.ops_per_sec), q.engine)
                               : fmt::format("{}: {}", probes::NameOf(q.outcome), Escape(q.reason));
  out += fmt::format(
      "<tr><th>random {} writes, queue depth {}, O_DIRECT, no sync</th><td>{}</td></tr>\n",
      text::FormatBytes(q.write_size), q.queue_depth, concurrent);
  if (s.serial_ops_per_sec > 0) {
    out += fmt::format("<tr><th>serial synced ({})</th><td>{}/s</td></tr>\n",
                       Escape(s.serial_label), text::FormatRate(s.serial_ops_per_sec));
    out += fmt::format("<tr><th>ratio</th><td>{}</td></tr>\n", text::FormatRatio(s.ratio));
  }
  return out + "</table>\n";
}

}  // namespace

std::string ConcurrencySection(const model::Target& t, const std::string& id_prefix) {
  if (t.concurrency.empty() && !t.serial_vs_concurrent) return "";
  std::string out = "<h3>Concurrent syncers</h3>\n";
  if (!t.concurrency.empty()) {
    out += ScalingPlot(t.concurrency, id_prefix + "-writers");
    out += RowsTable(t.concurrency);
  }
  if (t.serial_vs_concurrent) out += SerialBlock(*t.serial_vs_concurrent);
  return out;
}

}  // namespace durprobe::render::html
