#include "render/html/svg_scale.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace durprobe::render::html::svg {
namespace {

// 1, 2 or 5 times a power of ten, near range / 5: a linear axis gets four to ten ticks.
double NiceStep(double range) {
  double raw = range / 5.0;
  double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * power >= raw) return m * power;
  }
  return 10.0 * power;
}

}  // namespace

AxisMap::AxisMap(const Axis& axis, double lo, double hi, double from, double to)
    : axis_(axis), lo_(axis.min.value_or(lo)), hi_(axis.max.value_or(hi)), from_(from), to_(to) {
  if (!std::isfinite(lo_) || !std::isfinite(hi_)) lo_ = hi_ = axis.scale == Scale::kLog ? 1 : 0;
  if (axis_.scale == Scale::kLog) {
    lo_ = std::pow(10.0, std::floor(std::log10(std::max(lo_, 1e-300))));
    hi_ = std::pow(10.0, std::ceil(std::log10(std::max(hi_, lo_))));
    if (hi_ <= lo_) hi_ = lo_ * 10.0;
    return;
  }
  if (hi_ <= lo_) {
    double pad = lo_ == 0 ? 1.0 : std::abs(lo_) * 0.1;
    lo_ = axis.min ? lo_ : lo_ - pad;
    hi_ = lo_ + 2 * pad;
  }
  double step = NiceStep(hi_ - lo_);
  if (!axis.min) lo_ = std::floor(lo_ / step) * step;
  if (!axis.max) hi_ = std::ceil(hi_ / step) * step;
}

bool AxisMap::Drawable(double v) const {
  return std::isfinite(v) && (axis_.scale == Scale::kLinear || v > 0);
}

double AxisMap::operator()(double v) const {
  double share = axis_.scale == Scale::kLog
                     ? (std::log10(v) - std::log10(lo_)) / (std::log10(hi_) - std::log10(lo_))
                     : (v - lo_) / (hi_ - lo_);
  return from_ + share * (to_ - from_);
}

std::vector<double> AxisMap::Ticks() const {
  std::vector<double> ticks;
  if (!axis_.ticks.empty()) {
    for (double t : axis_.ticks) {
      if (Drawable(t) && t >= lo_ && t <= hi_) ticks.push_back(t);
    }
    return ticks;
  }
  if (axis_.scale == Scale::kLog) {
    int decades = static_cast<int>(std::lround(std::log10(hi_ / lo_)));
    // Few decades: 1, 2, 5 in each; many: every power of ten (or every other one).
    int every = decades > 8 ? 2 : 1;
    for (int d = 0; d <= decades; d += every) {
      double base = lo_ * std::pow(10.0, d);
      ticks.push_back(base);
      if (decades <= 2 && d < decades) {
        ticks.push_back(base * 2);
        ticks.push_back(base * 5);
      }
    }
    return ticks;
  }
  double step = NiceStep(hi_ - lo_);
  for (double v = lo_; v <= hi_ + step * 1e-6; v += step) {
    ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
  }
  return ticks;
}

std::string AxisMap::TickText(double v) const {
  if (axis_.format) return axis_.format(v);
  return fmt::format("{:g}", v);
}

std::string DashOf(int index) {
  static const char* kDashes[kStyles] = {"", "6 3", "2 3", "8 3 2 3", "12 4", "2 2 6 2"};
  return kDashes[index % kStyles];
}

std::string MarkerOf(int index) {
  static const char* kMarkers[kStyles] = {
      "M -3.5 0 A 3.5 3.5 0 1 0 3.5 0 A 3.5 3.5 0 1 0 -3.5 0 Z",  // circle
      "M -3 -3 H 3 V 3 H -3 Z",                                   // square
      "M 0 -4 L 4 3 H -4 Z",                                      // triangle
      "M 0 -4.5 L 4 0 L 0 4.5 L -4 0 Z",                          // diamond
      "M -4 -4 L 4 4 M -4 4 L 4 -4",                              // cross
      "M 0 -4.5 V 4.5 M -4.5 0 H 4.5",                            // plus
  };
  return kMarkers[index % kStyles];
}

}  // namespace durprobe::render::html::svg
