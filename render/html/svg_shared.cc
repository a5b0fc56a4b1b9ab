#include "render/html/svg_shared.h"

#include <fmt/format.h>

#include "render/html/html_text.h"
#include "render/html/svg_scale.h"

namespace durprobe::render::html::svg {
namespace {

using html::Coord;
using html::Escape;

constexpr double kRow = 18, kSample = 30, kCharWidth = 6.6;

}  // namespace

std::string Open(const std::string& id, const std::string& kind, const std::string& title,
                 double width, double height, const std::string& defs) {
  std::string eid = Escape(id);
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot {}\" data-plot=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\" aria-labelledby=\"{}-title\">\n"
      "<title id=\"{}-title\">{}</title>\n{}",
      kind, eid, Coord(width), Coord(height), eid, eid, Escape(title),
      defs.empty() ? "" : "<defs>" + defs + "</defs>\n");
}

std::string PatternUrl(const std::string& id, int index) {
  return fmt::format("url(#{}-p{})", Escape(id), index % kStyles);
}

std::string PatternDefs(const std::string& id, int count) {
  static const char* kHatch[kStyles] = {"",
                                        "M -2 2 L 2 -2 M 0 8 L 8 0 M 6 10 L 10 6",
                                        "M 3 4 A 1 1 0 1 0 5 4 A 1 1 0 1 0 3 4 Z",
                                        "M 0 0 L 8 8 M 0 8 L 8 0",
                                        "M 0 4 H 8",
                                        "M 4 0 V 8"};
  std::string defs;
  for (int i = 0; i < count && i < kStyles; ++i) {
    defs += fmt::format(
        "<pattern id=\"{}-p{}\" class=\"seg g{}\" patternUnits=\"userSpaceOnUse\" width=\"8\" "
        "height=\"8\"><rect class=\"bg\" width=\"8\" height=\"8\"/>{}</pattern>",
        Escape(id), i, i,
        *kHatch[i] ? fmt::format("<path class=\"hatch\" d=\"{}\"/>", kHatch[i]) : "");
  }
  return defs;
}

LegendBlock RenderLegend(const std::vector<LegendEntry>& entries, double top, double width) {
  LegendBlock block;
  if (entries.empty()) return block;
  double x = 10, y = top + kRow / 2;
  block.svg = "<g class=\"legend\">";
  for (const LegendEntry& e : entries) {
    double entry_width = kSample + 8 + kCharWidth * double(e.name.size()) + 18;
    if (x > 10 && x + entry_width > width) {
      x = 10;
      y += kRow;
    }
    block.svg += fmt::format("<g class=\"{}\" data-legend=\"{}\">", e.css_class, Escape(e.name));
    if (e.swatch) {
      block.svg += fmt::format(
          "<rect class=\"swatch\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"12\" fill=\"{}\"/>",
          Coord(x), Coord(y - 6), Coord(kSample), e.fill);
    } else {
      block.svg +=
          fmt::format("<path class=\"line\" d=\"M {} {} h {}\"{}/>", Coord(x), Coord(y),
                      Coord(kSample), e.dash.empty() ? "" : " stroke-dasharray=\"" + e.dash + "\"");
      if (!e.marker.empty()) {
        block.svg += fmt::format("<path class=\"mark\" transform=\"translate({} {})\" d=\"{}\"/>",
                                 Coord(x + kSample / 2), Coord(y), e.marker);
      }
    }
    block.svg += fmt::format("<text x=\"{}\" y=\"{}\">{}</text></g>", Coord(x + kSample + 6),
                             Coord(y + 4), Escape(e.name));
    x += entry_width;
  }
  block.svg += "</g>\n";
  block.height = y + kRow / 2 - top + 4;
  return block;
}

}  // namespace durprobe::render::html::svg
