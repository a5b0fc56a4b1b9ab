// The probe section: table, latency CDFs, write-size sweep.
#include "render/html/html_probes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "model/labels.h"
#include "model/percentiles.h"
#include "render/flush_text.h"
#include "render/html/html_page.h"
#include "render/html/html_text.h"
#include "text/units.h"

namespace durprobe::render::html {
namespace {

using probes::Primitive;
using probes::ProbeResult;

constexpr std::uint64_t kPreferredSize = 4096;  // SQLite's page: the size the CDFs show

bool HasData(const ProbeResult& r) {
  return r.outcome != probes::Outcome::kUnsupported && r.ops > 0;
}

std::string Cell(std::uint64_t ns) { return text::FormatNanos(static_cast<double>(ns)); }

std::string Table(const std::vector<ProbeResult>& results) {
  // flush/op only when a probe's device flushes were counted, as on the console.
  const bool flushes = AnyFlushesCounted(results);
  std::string out =
      "<table class=\"probes\">\n<thead><tr><th>primitive</th><th>pattern</th>"
      "<th class=\"num\">size</th><th class=\"num\">ops</th><th class=\"num\">ops/s</th>"
      "<th class=\"num\">p50</th><th class=\"num\">p90</th><th class=\"num\">p99</th>"
      "<th class=\"num\">p99.9</th><th class=\"num\">max</th>";
  if (flushes) out += fmt::format("<th class=\"num\">{}</th>", kFlushPerOpHeader);
  out += "<th>status</th></tr></thead>\n<tbody>\n";
  for (const ProbeResult& r : results) {
    std::string size = model::SizeLabel(r.spec) + model::RhythmLabel(r.spec);
    out += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td>",
                       probes::NameOf(r.spec.primitive), probes::NameOf(r.spec.pattern), size);
    if (!HasData(r)) {
      out += fmt::format("<td colspan=\"{}\"></td><td>{}: {}</td></tr>\n", flushes ? 8 : 7,
                         probes::NameOf(r.outcome), Escape(r.reason));
      continue;
    }
    const probes::LatencySummary& l = r.latency;
    std::string status(probes::NameOf(r.outcome));
    if (!r.reason.empty()) status += ": " + r.reason;
    if (!r.caveat.empty()) status += " (" + r.caveat + ")";
    out += fmt::format(
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td>",
        r.ops, text::FormatRate(r.ops_per_sec), Cell(l.p50), text::PercentileCell(model::P90(l)),
        text::PercentileCell(model::P99(l)), text::PercentileCell(model::P999(l)), Cell(l.max));
    if (flushes) out += fmt::format("<td class=\"num\">{}</td>", FlushPerOpCell(r.device_flushes));
    out += fmt::format("<td>{}</td></tr>\n", Escape(status));
  }
  out += "</tbody>\n</table>\n";
  if (AnyFlushCountInNoise(results)) {
    out += fmt::format("<p class=\"note\">{}</p>\n", Escape(kFlushNoiseNote));
  }
  return out;
}

svg::Axis LatencyAxis(const std::string& label) {
  return {.label = label, .scale = svg::Scale::kLog, .format = NanosTick};
}

std::string CdfPlot(const std::string& id, const std::string& title,
                    const std::vector<const ProbeResult*>& probes) {
  svg::LinePlot plot{
      .id = id,
      .title = title,
      .x = LatencyAxis("latency of one operation (log scale)"),
      .y = {.label = "operations at or below", .format = PercentTick, .min = 0.0, .max = 1.0}};
  bool reference = false;
  for (const ProbeResult* r : probes) {
    svg::Series s = CdfSeries(*r, ProbeName(*r));
    s.reference = r->spec.primitive == Primitive::kNone;
    if (s.points.empty()) continue;
    reference = reference || s.reference;
    plot.series.push_back(std::move(s));
  }
  if (plot.series.empty()) return "";
  std::string caption = Escape(title) +
                        ". Read across at 50% for the median and near the top for the tail; a "
                        "line further right is slower. Markers: p50, p90, p99, p99.9.";
  if (reference) {
    caption +=
        " The grey dashed line is the same write without a sync (the page cache alone): "
        "the gap to it is what the sync costs.";
  }
  return Figure(svg::Render(plot), caption);
}

std::string SweepPlot(const std::string& id, const std::vector<ProbeResult>& results) {
  std::map<std::string, svg::Series> by_name;
  std::vector<std::string> order;
  std::vector<double> sizes;  // ticks at the sizes measured
  for (const ProbeResult& r : results) {
    // The size axis is one write's size: operations of several writes are left out.
    if (!HasData(r) || r.spec.primitive == Primitive::kDirFsync || r.spec.writes_per_op != 1) {
      continue;
    }
    if (std::find(sizes.begin(), sizes.end(), double(r.spec.write_size)) == sizes.end()) {
      sizes.push_back(double(r.spec.write_size));
    }
    std::string name =
        fmt::format("{} {}", probes::NameOf(r.spec.primitive), probes::NameOf(r.spec.pattern));
    if (!by_name.count(name)) order.push_back(name);
    svg::Series& s = by_name[name];
    s.name = name;
    s.reference = r.spec.primitive == Primitive::kNone;
    double x = static_cast<double>(r.spec.write_size), y = static_cast<double>(r.latency.p50);
    s.points.push_back({x, y});
    s.marks.push_back({x, y,
                       fmt::format("{}: p50 {}, p99 {}", text::FormatBytes(r.spec.write_size),
                                   Cell(r.latency.p50), Cell(r.latency.p99))});
  }
  svg::LinePlot plot{.id = id,
                     .title = "Median latency by write size",
                     .x = {.label = "bytes per write (log scale)",
                           .scale = svg::Scale::kLog,
                           .format = [](double v) { return text::FormatBytes(std::uint64_t(v)); },
                           .ticks = sizes},
                     .y = LatencyAxis("median latency (log scale)")};
  for (const std::string& name : order) {
    svg::Series s = by_name[name];
    if (s.points.size() < 2) continue;
    auto by_x = [](const svg::Point& a, const svg::Point& b) { return a.x < b.x; };
    std::sort(s.points.begin(), s.points.end(), by_x);
    std::sort(s.marks.begin(), s.marks.end(), by_x);
    plot.series.push_back(std::move(s));
  }
  if (plot.series.empty()) return "";
  return Figure(svg::Render(plot),
                "Median latency of one write + sync against the write size. A flat line: the "
                "sync's fixed cost dominates; a line that rises with size: bytes moved dominate.");
}

}  // namespace

std::string NanosTick(double ns) {
  struct Unit {
    double scale;
    const char* name;
  };
  for (Unit u : {Unit{1e9, "s"}, Unit{1e6, "ms"}, Unit{1e3, "us"}}) {
    if (ns >= u.scale) return fmt::format("{:g} {}", ns / u.scale, u.name);
  }
  return fmt::format("{:g} ns", ns);
}

std::string PercentTick(double share) { return fmt::format("{:g}%", share * 100.0); }

std::string ProbeName(const ProbeResult& r) { return model::ProbeLabel(r.spec); }

svg::Series CdfSeries(const ProbeResult& r, const std::string& name) {
  svg::Series s{.name = name};
  std::uint64_t total = 0;
  for (const probes::HistogramBucket& b : r.histogram) total += b.count;
  if (total == 0) return s;
  double first = static_cast<double>(r.histogram.front().upper_bound_ns);
  double start = r.latency.min > 0 ? std::min(double(r.latency.min), first) : first;
  s.points.push_back({std::max(start, 1.0), 0.0});
  std::uint64_t seen = 0;
  for (const probes::HistogramBucket& b : r.histogram) {
    seen += b.count;
    s.points.push_back({std::max(double(b.upper_bound_ns), 1.0), double(seen) / double(total)});
  }
  const probes::LatencySummary& l = r.latency;
  for (auto [q, v, label] : {std::tuple{0.5, l.p50, "p50"}, std::tuple{0.9, l.p90, "p90"},
                             std::tuple{0.99, l.p99, "p99"}, std::tuple{0.999, l.p999, "p99.9"}}) {
    // A tail mark only where the operations support that percentile (model/percentiles.h).
    if (v > 0 && (q == 0.5 || model::PercentileSupported(q, l.count))) {
      s.marks.push_back({double(v), q, fmt::format("{} {}", label, Cell(v))});
    }
  }
  return s;
}

std::string ProbeSection(const std::vector<ProbeResult>& results, const std::string& id_prefix) {
  std::string out = "<h3>Raw sync primitives</h3>\n";
  std::vector<probes::Pattern> patterns;
  for (const ProbeResult& r : results) {
    if (r.spec.primitive == Primitive::kDirFsync) continue;
    if (std::find(patterns.begin(), patterns.end(), r.spec.pattern) == patterns.end()) {
      patterns.push_back(r.spec.pattern);
    }
  }
  for (probes::Pattern pattern : patterns) {
    // One size per plot (the closest to 4 KiB): the sweep plot shows the others.
    std::uint64_t size = 0;
    auto distance = [](std::uint64_t v) {
      return v > kPreferredSize ? v - kPreferredSize : kPreferredSize - v;
    };
    for (const ProbeResult& r : results) {
      if (r.spec.pattern != pattern || r.spec.primitive == Primitive::kDirFsync || !HasData(r))
        continue;
      if (size == 0 || distance(r.spec.write_size) < distance(size)) size = r.spec.write_size;
    }
    std::vector<const ProbeResult*> shown;
    for (const ProbeResult& r : results) {
      if (r.spec.pattern == pattern && r.spec.write_size == size && HasData(r) &&
          r.spec.primitive != Primitive::kDirFsync && r.spec.writes_per_op == 1) {
        shown.push_back(&r);
      }
    }
    std::string name(probes::NameOf(pattern));
    out += CdfPlot(fmt::format("{}-cdf-{}", id_prefix, name),
                   fmt::format("Latency CDF, {} pattern, {} writes", name, text::FormatBytes(size)),
                   shown);
  }
  std::vector<const ProbeResult*> dir;
  for (const ProbeResult& r : results) {
    if (r.spec.primitive == Primitive::kDirFsync && HasData(r)) dir.push_back(&r);
  }
  out += CdfPlot(id_prefix + "-cdf-dir", "Latency CDF, directory sync after create or rename", dir);
  out += SweepPlot(id_prefix + "-sizes", results);
  return out + Table(results);
}

}  // namespace durprobe::render::html
