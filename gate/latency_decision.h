// A latency rule decided by its figure's whole interval (analysis/decision.h), not the figure
// alone: a limit inside the interval, or an interval from too few samples to be one, is "cannot
// tell" (unstable, exit 2), never a pass or a fail the next run may turn over.
#pragma once

#include <cstdint>
#include <string>

#include "analysis/decision.h"
#include "model/report.h"

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

}  // namespace durprobe::gate
