#include "probes/statistics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <limits>

namespace durprobe::probes {

double Median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

std::uint64_t Percentile(const Histogram& h, double q) {
  std::uint64_t n = h.count();
  if (n == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(n)));
  return h.ValueAtRank(rank == 0 ? 0 : rank - 1);
}

bool CiSupported(std::uint64_t ops, double timed_seconds) {
  return ops >= kMinCiOperations && timed_seconds >= kMinCiSeconds;
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
  ci.high =
      h.ValueAtRank(static_cast<std::uint64_t>(std::min(hi_rank, static_cast<double>(n - 1))));
  std::uint64_t median = Percentile(h, 0.5);
  ci.relative_half_width =
      median == 0 ? std::numeric_limits<double>::infinity()
                  : static_cast<double>(ci.high - ci.low) / 2.0 / static_cast<double>(median);
  return ci;
}

Interval QuantileConfidenceInterval(const Histogram& h, double q, double z) {
  Interval ci;
  std::uint64_t n = h.count();
  std::uint64_t value = Percentile(h, q);
  if (n == 0 || value == 0) {
    ci.relative_half_width = std::numeric_limits<double>::infinity();
    return ci;
  }
  double nd = static_cast<double>(n);
  double half = z * std::sqrt(nd * q * (1.0 - q));
  double lo_rank = std::floor(nd * q - half) - 1.0;  // ranks are 0-based
  double hi_rank = std::ceil(nd * q + half) - 1.0;
  ci.low = h.ValueAtRank(lo_rank < 0 ? 0 : static_cast<std::uint64_t>(lo_rank));
  ci.high = h.ValueAtRank(static_cast<std::uint64_t>(std::clamp(hi_rank, 0.0, nd - 1.0)));
  ci.relative_half_width = static_cast<double>(ci.high - ci.low) / 2.0 / static_cast<double>(value);
  return ci;
}

Modes FindModes(const Histogram& h) {
  Modes m;
  constexpr int kRows = Histogram::kBucketCount / Histogram::kSubBuckets;
  std::array<std::uint64_t, kRows> rows{};
  for (int i = 0; i < Histogram::kBucketCount; ++i)
    rows[i / Histogram::kSubBuckets] += h.CountAt(i);
  const double total = static_cast<double>(h.count());
  if (total < 20) return m;
  int top = static_cast<int>(std::max_element(rows.begin(), rows.end()) - rows.begin());
  int best = -1;
  for (int j = 0; j < kRows; ++j) {
    if (std::abs(j - top) < 2 || static_cast<double>(rows[j]) < 0.05 * total) continue;
    if (j > 0 && j + 1 < kRows && (rows[j - 1] > rows[j] || rows[j + 1] > rows[j])) continue;
    std::uint64_t smaller = std::min(rows[top], rows[j]);
    bool valley = false;
    for (int k = std::min(j, top) + 1; k < std::max(j, top); ++k) {
      valley = valley || rows[k] * 4 < smaller;
    }
    if (valley && (best < 0 || rows[j] > rows[best])) best = j;
  }
  if (best < 0) return m;
  int lo = std::min(top, best), hi = std::max(top, best);
  int valley_row = lo + 1;
  for (int k = lo + 1; k < hi; ++k) {
    if (rows[k] < rows[valley_row]) valley_row = k;
  }
  std::uint64_t upper = 0;
  for (int k = valley_row; k < kRows; ++k) upper += rows[k];
  // Each cluster is placed at its own median, from the fine buckets: where its operations are,
  // not the middle of a power-of-two row.
  auto median_of = [&h](int first_row, int end_row) {
    int begin = first_row * Histogram::kSubBuckets, end = end_row * Histogram::kSubBuckets;
    std::uint64_t n = 0;
    for (int i = begin; i < end; ++i) n += h.CountAt(i);
    std::uint64_t rank = (n - 1) / 2, seen = 0;
    for (int i = begin; i < end; ++i) {
      seen += h.CountAt(i);
      if (seen > rank) {
        std::uint64_t mid = (Histogram::BucketLow(i) + Histogram::BucketHigh(i) - 1) / 2;
        return std::clamp(mid, h.min(), h.max());
      }
    }
    return h.max();
  };
  m.bimodal = true;
  m.low = median_of(0, valley_row);
  m.high = median_of(valley_row, kRows);
  m.high_share = static_cast<double>(upper) / total;
  return m;
}

LatencySummary Summarize(const Histogram& h) {
  LatencySummary s;
  s.count = h.count();
  s.min = h.min();
  s.max = h.max();
  s.mean = h.mean();
  s.p50 = Percentile(h, 0.50);
  s.p90 = Percentile(h, 0.90);
  s.p95 = Percentile(h, 0.95);
  s.p99 = Percentile(h, 0.99);
  s.p999 = Percentile(h, 0.999);
  s.p9999 = Percentile(h, 0.9999);
  Interval ci = MedianConfidenceInterval(h);
  s.p50_ci_low = ci.low;
  s.p50_ci_high = ci.high;
  s.p50_ci_relative = ci.relative_half_width;
  Interval tail = QuantileConfidenceInterval(h, 0.99);
  s.p99_ci_low = tail.low;
  s.p99_ci_high = tail.high;
  Modes modes = FindModes(h);
  s.bimodal = modes.bimodal;
  s.mode_low = modes.low;
  s.mode_high = modes.high;
  s.high_mode_share = modes.high_share;
  return s;
}

double BinomialAtMost(std::uint64_t n, std::uint64_t k, double p) {
  if (k >= n) return 1.0;
  const double dn = static_cast<double>(n);
  const double lp = std::log(p), lq = std::log1p(-p), lfn = std::lgamma(dn + 1.0);
  auto log_pmf = [&](std::uint64_t i) {
    const double di = static_cast<double>(i);
    return lfn - std::lgamma(di + 1.0) - std::lgamma(dn - di + 1.0) + di * lp + (dn - di) * lq;
  };
  // The largest term of 0..k: the mode's when it lies within, else k's (the terms rise to it).
  const auto mode = static_cast<std::uint64_t>(std::floor((dn + 1.0) * p));
  const double top = log_pmf(std::min(k, mode));
  double sum = 0.0;
  for (std::uint64_t i = 0; i <= k; ++i) sum += std::exp(log_pmf(i) - top);
  return std::min(1.0, std::exp(top + std::log(sum)));
}

double StudentT975(std::uint32_t df) {
  static constexpr double kTable[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                      2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                      2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                      2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (df >= 1 && df <= std::size(kTable)) return kTable[df - 1];
  const double z = 1.959964, v = df;
  return z + (z * z * z + z) / (4 * v) +
         (5 * std::pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * v * v);
}

}  // namespace durprobe::probes
