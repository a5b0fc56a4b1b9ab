// Axes for the SVG plots: the map from data to pixels and the tick values, linear or log.
#pragma once

#include <string>
#include <vector>

#include "render/html/svg_plot.h"

namespace durprobe::render::html::svg {

class AxisMap {
 public:
  // Data range [lo, hi] (widened when empty, and to whole decades on a log axis) onto pixels
  // [from, to]; to may be below from (a y axis grows upwards).
  AxisMap(const Axis& axis, double lo, double hi, double from, double to);

  bool Drawable(double v) const;  // finite, and positive on a log axis
  double operator()(double v) const;
  std::vector<double> Ticks() const;
  std::string TickText(double v) const;
  double lo() const { return lo_; }
  double hi() const { return hi_; }

 private:
  Axis axis_;
  double lo_, hi_, from_, to_;
};

// Series style index -> dash pattern ("" for a solid line) and marker path centred on (0, 0).
std::string DashOf(int index);
std::string MarkerOf(int index);
inline constexpr int kStyles = 6;

}  // namespace durprobe::render::html::svg
