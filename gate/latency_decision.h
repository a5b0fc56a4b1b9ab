// A latency rule decided by its figure's whole interval (analysis/decision.h), not the figure
// alone: a limit inside the interval, or an interval from too few samples to be one, is "cannot
// tell" (unstable, exit 2), never a pass or a fail the next run may turn over.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/decision.h"
#include "model/report.h"
#include "probes/histogram.h"

namespace durprobe::gate {

// Whether value (ns; c's interval in seconds around it, both ends 0 in a report saved without
// one) is below limit_ns. min_samples: the fewest c.samples the figure rests on, kTailMinOps
// for a p99 (from fewer it is the slowest operation under another name), kMinCiOperations for a
// median. On kCannotTell, c is settled as unstable and undecided, its message "cannot tell: " +
// what + why; otherwise c is left as it is.
// min_pass_samples: the fewest a "below" rests on (a p99: kTailBoundOps, the count whose slowest
// bounds it from above); a figure over the limit is decided from min_samples.
analysis::Decision DecideLatency(model::CheckResult& c, std::uint64_t value, std::uint64_t limit_ns,
                                 const std::string& what, std::uint64_t min_samples,
                                 std::uint64_t min_pass_samples = 0);

// A p99 rule's samples over its limit, counted from the probe's histogram: those whose whole
// bucket lies above the limit (each value is known to within 1/128 of itself).
struct TailCount {
  std::uint64_t samples = 0;
  std::uint64_t above = 0;
};
TailCount CountAbove(const std::vector<probes::HistogramBucket>& buckets, std::uint64_t limit_ns);

// Whether so many samples over the limit decide that the p99 is not below it. Were the p99
// below the limit, each sample would exceed it with chance under 1 in 100, so `above` of
// `samples` is decided when P(Binomial(samples, 0.01) >= above) < 0.025, the one-sided half of
// the figures' 95% intervals: 53 of 53 syncs over a 10 ms limit decide it, where the interval
// needs 100 samples; 1 of 53 does not (one in a hundred may).
bool DecidedOverByCount(const TailCount& t);

}  // namespace durprobe::gate
