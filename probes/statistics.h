// Pure functions over a Histogram: percentiles, the summary a report prints, and the
// distribution-free confidence interval of the median the adaptive stop rule uses.
#pragma once

#include <cstdint>
#include <vector>

#include "probes/histogram.h"

namespace durprobe::probes {

struct LatencySummary {
  std::uint64_t count = 0;
  std::uint64_t min = 0, p50 = 0, p90 = 0, p95 = 0, p99 = 0, p999 = 0, max = 0;
  std::uint64_t p9999 = 0;  // fio's ladder's last step; JSON only, from 10,000 operations
  double mean = 0.0;
  // 95% confidence interval of the median (order statistics), and its half-width relative to it.
  std::uint64_t p50_ci_low = 0, p50_ci_high = 0;
  double p50_ci_relative = 0.0;
  // 95% confidence interval of the p99, the same way (check's tail rules quote it).
  std::uint64_t p99_ci_low = 0, p99_ci_high = 0;
  // Two separate clusters of latencies (see FindModes).
  bool bimodal = false;
  std::uint64_t mode_low = 0, mode_high = 0;
  double high_mode_share = 0.0;  // fraction of operations in the upper cluster
};

// The median of plain values (the mean of the middle two for an even count); 0 when empty.
double Median(std::vector<double> values);

// Nearest-rank percentile: the smallest recorded value with at least q of the data at or below
// it (q in [0, 1]). 0 for an empty histogram.
std::uint64_t Percentile(const Histogram& h, double q);

struct Interval {
  std::uint64_t low = 0, high = 0;
  double relative_half_width = 0.0;  // (high - low) / 2 / median; infinity when undefined
};

// Confidence interval of the median from order statistics: ranks n/2 -/+ z*sqrt(n)/2 (normal
// approximation of the binomial), so no assumption is made about the latency distribution.
Interval MedianConfidenceInterval(const Histogram& h, double z = 1.96);
// The same for any quantile q: ranks n*q -/+ z*sqrt(n*q*(1-q)), clamped to the data. With few
// samples the interval reaches the maximum, which is the honest answer for a tail.
Interval QuantileConfidenceInterval(const Histogram& h, double q, double z = 1.96);

struct Modes {
  bool bimodal = false;
  std::uint64_t low = 0, high = 0;  // each cluster's median (ns, to the histogram's resolution)
  double high_share = 0.0;          // fraction of operations at or above the valley
};
// Two clusters with a valley between them (fast syncs and journal-commit or writeback stalls):
// on power-of-two bins, two peaks at least 4x apart, each with >= 5% of the operations, and
// every bin between them below a quarter of the smaller peak.
Modes FindModes(const Histogram& h);

LatencySummary Summarize(const Histogram& h);

// A median's confidence interval is shown (and a probe called converged) only from this many
// operations over this much timed time: fewer, and the interval is the spread of a handful of
// samples taken in one moment of the device, not the figure's uncertainty (docs/accuracy.md).
inline constexpr std::uint64_t kMinCiOperations = 20;
inline constexpr double kMinCiSeconds = 0.5;
bool CiSupported(std::uint64_t ops, double timed_seconds);

// P(X <= k) for X ~ Binomial(n, p), 0 < p < 1: summed in log space, so a large n (where p^0's
// term alone underflows) still reads right. k >= n gives 1.
double BinomialAtMost(std::uint64_t n, std::uint64_t k, double p);

// Student's t at 0.975 (a two-sided 95% interval) for df degrees of freedom (df >= 1): the
// table to 30, then the Cornish-Fisher expansion around the normal's 1.96 (within 0.001 from 30
// on). The next run's interval over --repeat's runs (model/repeats.h) reads it.
double StudentT975(std::uint32_t df);

}  // namespace durprobe::probes
