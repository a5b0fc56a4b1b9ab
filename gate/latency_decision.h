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
// one) is below limit_ns. On kCannotTell, c is settled as unstable and undecided, its message
// "cannot tell: " + what + why; otherwise c is left as it is.
analysis::Decision DecideLatency(model::CheckResult& c, std::uint64_t value, std::uint64_t limit_ns,
                                 const std::string& what);

}  // namespace durprobe::gate
