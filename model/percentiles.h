// Which latency percentiles a number of operations can support. A percentile q is reported only
// when at least one operation lies above it (count x (1 - q) >= 1): p90 needs 10 operations, p99
// 100 and p99.9 1,000. With fewer, the nearest-rank percentile is the slowest operation under
// another name, so tables print "-" and JSON null instead (docs/json.md).
#pragma once

#include <cstdint>
#include <optional>

#include "probes/statistics.h"

namespace durprobe::model {

bool PercentileSupported(double q, std::uint64_t count);

// The summary's tail percentiles, absent when its count does not support them.
std::optional<std::uint64_t> P90(const probes::LatencySummary& s);
std::optional<std::uint64_t> P99(const probes::LatencySummary& s);
std::optional<std::uint64_t> P999(const probes::LatencySummary& s);
// p99.99 (10,000 operations), also absent when the summary has none (a report from before it
// was written).
std::optional<std::uint64_t> P9999(const probes::LatencySummary& s);

}  // namespace durprobe::model
