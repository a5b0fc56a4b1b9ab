// What the line plot and the bar chart share: the <svg> element, fill patterns and the legend.
#pragma once

#include <string>
#include <vector>

namespace durprobe::render::html::svg {

inline constexpr double kWidth = 720;

// The opening <svg> tag with its accessible <title>; defs is inserted after it.
std::string Open(const std::string& id, const std::string& kind, const std::string& title,
                 double width, double height, const std::string& defs);

// <pattern> definitions for bar segment index i: solid, hatched, dotted, cross-hatched, ...,
// each over the segment's colour, with ids "<id>-p<i>".
std::string PatternDefs(const std::string& id, int count);
std::string PatternUrl(const std::string& id, int index);

struct LegendEntry {
  std::string name;
  std::string css_class;  // "series s2", "series ref", "seg g1"
  std::string dash;       // line sample's dash pattern
  std::string marker;     // marker path drawn on the sample, or ""
  bool swatch = false;    // a filled box (bar segment) instead of a line sample
  std::string fill;       // the swatch's fill (a pattern url)
};

struct LegendBlock {
  std::string svg;
  double height = 0;
};

// Entries flow left to right in rows from y = top, wrapping at width.
LegendBlock RenderLegend(const std::vector<LegendEntry>& entries, double top, double width);

}  // namespace durprobe::render::html::svg
