#include "gate/latency_decision.h"

#include <fmt/format.h>

#include <algorithm>

#include "probes/statistics.h"
#include "text/units.h"

namespace durprobe::gate {

analysis::Decision DecideLatency(model::CheckResult& c, std::uint64_t value, std::uint64_t limit_ns,
                                 const std::string& what) {
  const double v = static_cast<double>(value);
  const bool bounded = c.ci_high && *c.ci_high > 0;
  const double low = bounded ? *c.ci_low * 1e9 : v;
  const double high = bounded ? *c.ci_high * 1e9 : v;
  analysis::Decision below =
      analysis::DecideBelow(std::min(low, v), std::max(high, v), static_cast<double>(limit_ns),
                            c.samples, probes::kMinCiOperations);
  if (below != analysis::Decision::kCannotTell) return below;
  c.outcome = model::CheckOutcome::kUnstable;
  c.undecided = true;
  c.message = fmt::format(
      "cannot tell: {}{}; more operations decide it (a longer --budget, or a run without "
      "--quick)",
      what,
      c.samples < probes::kMinCiOperations
          ? fmt::format(" is from {} samples, fewer than the {} an interval needs", c.samples,
                        probes::kMinCiOperations)
          : fmt::format(" holds the limit {} inside its interval",
                        text::FormatNanos(static_cast<double>(limit_ns))));
  return below;
}

}  // namespace durprobe::gate
