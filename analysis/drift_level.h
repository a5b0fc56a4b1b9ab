// What counts as a change of level, and a reference sample's level: the thresholds drift
// (analysis/drift.h) finds shifts with and probe_drift (analysis/probe_drift.h) measures the
// device around each probe with, below both.
#pragma once

#include "model/report.h"

namespace durprobe::analysis {

// A level shift must be at least this large, as a ratio of the two levels and in absolute time,
// before it counts: below that, a quiet disk's noise would raise false alarms.
inline constexpr double kMinDriftRatio = 1.5;
inline constexpr double kMinDriftNs = 20'000.0;

// A reference sample's level: its mean latency (its median in a sample without one). The mean,
// because a neighbour's I/O makes a few syncs very slow and leaves the median where it was, while
// commit rates (and the correlation, which works from means) pay for every slow one: seen here,
// a competing fsync writer left the median at 100-125 us and took the mean from 116 to 447 us.
double ReferenceLevel(const model::ReferenceSample& sample);

// Whether two latencies differ by the drift thresholds.
bool Drifted(double a, double b);

}  // namespace durprobe::analysis
