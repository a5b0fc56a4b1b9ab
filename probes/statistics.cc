#include "probes/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace durprobe::probes {

std::uint64_t Percentile(const Histogram& h, double q) {
  std::uint64_t n = h.count();
  if (n == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(n)));
  return h.ValueAtRank(rank == 0 ? 0 : rank - 1);
}

Interval MedianConfidenceInterval(const Histogram& h, double z) {
  Interval ci;
  std::uint64_t n = h.count();
  if (n == 0) {
    ci.relative_half_width = std::numeric_limits<double>::infinity();
    return ci;
  }
  double half = z * std::sqrt(static_cast<double>(n)) / 2.0;
  double centre = static_cast<double>(n) / 2.0;
  double lo_rank = std::floor(centre - half);
  double hi_rank = std::ceil(centre + half);
  ci.low = h.ValueAtRank(lo_rank < 0 ? 0 : static_cast<std::uint64_t>(lo_rank));
  ci.high = h.ValueAtRank(static_cast<std::uint64_t>(std::min(hi_rank, static_cast<double>(n - 1))));
  std::uint64_t median = Percentile(h, 0.5);
  ci.relative_half_width = median == 0 ? std::numeric_limits<double>::infinity()
                                       : static_cast<double>(ci.high - ci.low) / 2.0 /
                                             static_cast<double>(median);
  return ci;
}

LatencySummary Summarize(const Histogram& h) {
  LatencySummary s;
  s.count = h.count();
  s.min = h.min();
  s.max = h.max();
  s.mean = h.mean();
  s.p50 = Percentile(h, 0.50);
  s.p90 = Percentile(h, 0.90);
  s.p99 = Percentile(h, 0.99);
  s.p999 = Percentile(h, 0.999);
  Interval ci = MedianConfidenceInterval(h);
  s.p50_ci_low = ci.low;
  s.p50_ci_high = ci.high;
  s.p50_ci_relative = ci.relative_half_width;
  return s;
}

}  // namespace durprobe::probes
