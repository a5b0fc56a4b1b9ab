// Horizontal bar charts drawn as inline SVG, on the axes, series styles and legends of
// render/html/svg_plot.h (whose notes on colour and patterns hold here too). Every bar
// segment is a <rect> carrying data-series="NAME".
#pragma once

#include <string>
#include <vector>

#include "render/html/svg_plot.h"

namespace durprobe::render::html::svg {

struct Segment {
  double value = 0;   // may be negative: it then extends left of zero
  std::string label;  // drawn inside the segment when it fits, always in its tooltip
};

struct Bar {
  std::string group;  // bars of one group are drawn together under this heading ("" for none)
  std::string label;  // at the bar's left
  std::vector<Segment> segments;  // stacked in the order of BarChart::segment_names
  std::string note;               // printed after the bar ("2.0 syncs/commit", "8.7x")
};

// Horizontal bars on a linear axis through zero; each bar is a stack of segments, positive
// segments stacked right of zero and negative ones left of it.
struct BarChart {
  std::string id;
  std::string title;
  Axis value;                              // the horizontal axis (linear)
  std::vector<std::string> segment_names;  // legend and data-series, one per segment index
  std::vector<Bar> bars;
};
std::string Render(const BarChart& chart);

}  // namespace durprobe::render::html::svg
