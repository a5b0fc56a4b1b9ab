#include "render/html/svg_plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "render/html/html_text.h"
#include "render/html/svg_scale.h"
#include "render/html/svg_shared.h"

namespace durprobe::render::html::svg {
namespace {

using html::Coord;
using html::Escape;

constexpr double kLeft = 70, kRight = 20, kTop = 14, kPlotHeight = 250, kAxisBelow = 42;

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void Add(double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
};

Range RangeOf(const LinePlot& plot, bool x_axis) {
  const Axis& axis = x_axis ? plot.x : plot.y;
  Range r;
  for (const Series& s : plot.series) {
    for (const std::vector<Point>* pts : {&s.points, &s.marks}) {
      for (const Point& p : *pts) {
        double v = x_axis ? p.x : p.y;
        if (std::isfinite(v) && (axis.scale == Scale::kLinear || v > 0)) r.Add(v);
      }
    }
  }
  if (r.lo > r.hi) r.lo = r.hi = axis.scale == Scale::kLog ? 1.0 : 0.0;
  return r;
}

std::string SeriesClass(const Series& s, int style) {
  return s.reference ? "series ref" : fmt::format("series s{}", style % kStyles);
}

// Reference lines are all grey: they differ from each other by dash and marker alone.
std::string ReferenceDash(int index) { return index % 2 == 0 ? "4 4" : "1 3"; }

}  // namespace

std::string Render(const LinePlot& plot) {
  double width = kWidth;
  double right = width - kRight;
  double bottom = kTop + kPlotHeight;
  Range xr = RangeOf(plot, true), yr = RangeOf(plot, false);
  AxisMap x(plot.x, xr.lo, xr.hi, kLeft, right);
  AxisMap y(plot.y, yr.lo, yr.hi, bottom, kTop);

  std::vector<LegendEntry> legend;
  int style = 0, references = 0;
  std::string body;
  for (const Series& s : plot.series) {
    int mine = s.reference ? references++ : style++;
    std::string dash = s.reference ? ReferenceDash(mine) : DashOf(mine);
    std::string marker = s.reference ? MarkerOf(mine + 1) : MarkerOf(mine);
    std::string d;
    for (const Point& p : s.points) {
      if (!x.Drawable(p.x) || !y.Drawable(p.y)) continue;
      d += fmt::format("{}{} {} ", d.empty() ? "M " : "L ", Coord(x(p.x)), Coord(y(p.y)));
    }
    std::string name = Escape(s.name);
    body += fmt::format("<g class=\"{}\">", SeriesClass(s, mine));
    if (!d.empty()) {
      d.pop_back();
      body += fmt::format("<path class=\"line\" data-series=\"{}\" d=\"{}\"{}/>", name, d,
                          dash.empty() ? "" : fmt::format(" stroke-dasharray=\"{}\"", dash));
    }
    for (const Point& p : s.marks) {
      if (!x.Drawable(p.x) || !y.Drawable(p.y)) continue;
      body += fmt::format("<path class=\"mark\" transform=\"translate({} {})\" d=\"{}\">",
                          Coord(x(p.x)), Coord(y(p.y)), marker);
      body += fmt::format("<title>{}: {}</title></path>", name, Escape(p.note));
    }
    body += "</g>\n";
    legend.push_back({s.name, SeriesClass(s, mine), dash, s.marks.empty() ? "" : marker, false});
  }

  std::string axes = "<g class=\"grid\">";
  for (double t : x.Ticks()) {
    axes += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", Coord(x(t)),
                        Coord(kTop), Coord(bottom));
  }
  for (double t : y.Ticks()) {
    axes += fmt::format("<line x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\"/>", Coord(y(t)),
                        Coord(kLeft), Coord(right));
  }
  axes += "</g>\n<g class=\"axis\">";
  axes += fmt::format("<path d=\"M {0} {1} V {2} H {3}\"/>", Coord(kLeft), Coord(kTop),
                      Coord(bottom), Coord(right));
  for (double t : x.Ticks()) {
    axes += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", Coord(x(t)),
                        Coord(bottom + 16), Escape(x.TickText(t)));
  }
  for (double t : y.Ticks()) {
    axes += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", Coord(kLeft - 6),
                        Coord(y(t) + 4), Escape(y.TickText(t)));
  }
  axes += fmt::format("<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                      Coord((kLeft + right) / 2), Coord(bottom + 34), Escape(plot.x.label));
  axes += fmt::format(
      "<text class=\"label\" transform=\"translate(14 {}) rotate(-90)\" "
      "text-anchor=\"middle\">{}</text></g>\n",
      Coord((kTop + bottom) / 2), Escape(plot.y.label));

  LegendBlock block = RenderLegend(legend, bottom + kAxisBelow + 6, width);
  return Open(plot.id, "line", plot.title, width, bottom + kAxisBelow + 6 + block.height, "") +
         axes + body + block.svg + "</svg>\n";
}

}  // namespace durprobe::render::html::svg
