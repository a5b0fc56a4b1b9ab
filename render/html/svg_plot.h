// Plots drawn by durprobe itself as inline SVG for the HTML reporter: no script, no font, no
// network. Every series is one element carrying data-series="NAME" (a <path> for a line, a <rect>
// per bar segment), so a test, or a reader of the page's source, can find each one.
//
// Readable without colour: series differ by dash pattern and marker shape as well as colour,
// bar segments by fill pattern, and every series is named in a legend that shows its pattern.
// Colours are CSS variables (--c0 ... --c5, --fg, --bg, --grid) the page defines for light, dark
// and print.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace durprobe::render::html::svg {

struct Point {
  double x = 0, y = 0;
  std::string note;  // tooltip (<title>) of the point's marker, when it has one
};

struct Series {
  std::string name;           // legend text and data-series attribute
  std::vector<Point> points;  // the line, in drawing order
  std::vector<Point> marks;   // where markers go (percentiles of a CDF, every sample of a rate)
  bool reference = false;     // a baseline to read the others against: grey, dashed
};

enum class Scale { kLinear, kLog };

struct Axis {
  std::string label;
  Scale scale = Scale::kLinear;
  std::function<std::string(double)> format;  // tick text; plain numbers when unset
  std::optional<double> min, max;             // a fixed end; from the data when unset
  std::vector<double> ticks;                  // where ticks go; from the scale when empty
};

// A line plot: a CDF, a sweep, a series over the run. Points that cannot be drawn (not finite,
// or not positive on a log axis) are left out.
struct LinePlot {
  std::string id;  // unique in the page; names the figure (data-plot) and prefixes its ids
  std::string title;
  Axis x, y;
  std::vector<Series> series;
};
std::string Render(const LinePlot& plot);

}  // namespace durprobe::render::html::svg
