#include "render/html/svg_bars.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "render/html/html_text.h"
#include "render/html/svg_scale.h"
#include "render/html/svg_shared.h"

namespace durprobe::render::html::svg {
namespace {

using html::Coord;
using html::Escape;

constexpr double kLabelRight = 200, kBarLeft = 208, kNoteWidth = 150, kTop = 10;
constexpr double kBarHeight = 18, kBarStep = 24, kGroupStep = 20, kAxisBelow = 40;
constexpr double kCharWidth = 6.6;

}  // namespace

std::string Render(const BarChart& chart) {
  double lo = 0, hi = 0;
  for (const Bar& bar : chart.bars) {
    double neg = 0, pos = 0;
    for (const Segment& s : bar.segments)
      (s.value < 0 ? neg : pos) += std::isfinite(s.value) ? s.value : 0;
    lo = std::min(lo, neg);
    hi = std::max(hi, pos);
  }
  Axis axis = chart.value;
  axis.scale = Scale::kLinear;
  AxisMap x(axis, lo, hi, kBarLeft, kWidth - kNoteWidth);

  std::string body;
  double y = kTop;
  std::string group;
  bool first = true;
  for (const Bar& bar : chart.bars) {
    if (!bar.group.empty() && (first || bar.group != group)) {
      body += fmt::format("<text class=\"group\" x=\"10\" y=\"{}\">{}</text>\n", Coord(y + 14),
                          Escape(bar.group));
      y += kGroupStep;
    }
    group = bar.group;
    first = false;
    std::string label = Escape(bar.label);
    body += fmt::format(
        "<g class=\"bar\" data-bar=\"{}\"><text x=\"{}\" y=\"{}\" "
        "text-anchor=\"end\">{}</text>",
        label, Coord(kLabelRight), Coord(y + kBarHeight - 5), label);
    double pos = 0, neg = 0;
    for (std::size_t i = 0; i < bar.segments.size(); ++i) {
      const Segment& s = bar.segments[i];
      if (!std::isfinite(s.value) || s.value == 0) continue;
      double from = s.value < 0 ? neg + s.value : pos;
      double to = s.value < 0 ? neg : pos + s.value;
      (s.value < 0 ? neg : pos) += s.value;
      double left = x(from), w = x(to) - x(from);
      std::string name = i < chart.segment_names.size() ? chart.segment_names[i] : "";
      body += fmt::format(
          "<rect class=\"seg g{}\" data-series=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" "
          "height=\"{}\" fill=\"{}\"><title>{}: {}</title></rect>",
          i % kStyles, Escape(name), Coord(left), Coord(y), Coord(std::max(w, 0.5)),
          Coord(kBarHeight), PatternUrl(chart.id, static_cast<int>(i)), Escape(name),
          Escape(s.label));
      if (!s.label.empty() && w > kCharWidth * double(s.label.size()) + 6) {
        body +=
            fmt::format("<text class=\"inbar\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                        Coord(left + w / 2), Coord(y + kBarHeight - 5), Escape(s.label));
      }
    }
    if (!bar.note.empty()) {
      body += fmt::format("<text class=\"note\" x=\"{}\" y=\"{}\">{}</text>", Coord(x(pos) + 6),
                          Coord(y + kBarHeight - 5), Escape(bar.note));
    }
    body += "</g>\n";
    y += kBarStep;
  }

  double bottom = y;
  std::string axes = "<g class=\"grid\">";
  for (double t : x.Ticks()) {
    axes += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", Coord(x(t)),
                        Coord(kTop), Coord(bottom));
  }
  axes += "</g>\n<g class=\"axis\">";
  axes += fmt::format("<path d=\"M {0} {1} V {2} M {3} {2} H {4}\"/>", Coord(x(0)), Coord(kTop),
                      Coord(bottom), Coord(kBarLeft), Coord(kWidth - kNoteWidth));
  for (double t : x.Ticks()) {
    axes += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", Coord(x(t)),
                        Coord(bottom + 16), Escape(x.TickText(t)));
  }
  axes += fmt::format(
      "<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text></g>\n",
      Coord((kBarLeft + kWidth - kNoteWidth) / 2), Coord(bottom + 34), Escape(chart.value.label));

  std::vector<LegendEntry> legend;
  for (std::size_t i = 0; i < chart.segment_names.size(); ++i) {
    legend.push_back({chart.segment_names[i], fmt::format("seg g{}", i % kStyles), "", "", true,
                      PatternUrl(chart.id, static_cast<int>(i))});
  }
  LegendBlock block = RenderLegend(legend, bottom + kAxisBelow + 4, kWidth);
  std::string defs = PatternDefs(chart.id, static_cast<int>(chart.segment_names.size()));
  return Open(chart.id, "bars", chart.title, kWidth, bottom + kAxisBelow + 4 + block.height, defs) +
         axes + body + block.svg + "</svg>\n";
}

}  // namespace durprobe::render::html::svg
