#include "gate/latency_decision.h"

#include <fmt/format.h>

#include <algorithm>

#include "probes/statistics.h"
#include "text/units.h"

namespace durprobe::gate {
namespace {

// The chance a decided claim may still be wrong, on its side: half of a 95% interval's 5%.
constexpr double kOneSidedChance = 0.025;

}  // namespace

analysis::Decision DecideLatency(model::CheckResult& c, std::uint64_t value, std::uint64_t limit_ns,
                                 const std::string& what, std::uint64_t min_samples,
                                 std::uint64_t min_pass_samples) {
  const double v = static_cast<double>(value);
  const bool bounded = c.ci_high && *c.ci_high > 0;
  const double low = bounded ? *c.ci_low * 1e9 : v;
  const double high = bounded ? *c.ci_high * 1e9 : v;
  analysis::Decision below = analysis::DecideBelow(
      std::min(low, v), std::max(high, v), static_cast<double>(limit_ns), c.samples, min_samples);
  std::string why;
  if (below == analysis::Decision::kYes && c.samples < min_pass_samples) {
    below = analysis::Decision::kCannotTell;
    why = fmt::format(
        " is under the limit {} from {} samples, fewer than the {} whose slowest bounds a p99 "
        "from above",
        text::FormatNanos(static_cast<double>(limit_ns)), c.samples, min_pass_samples);
  } else if (below != analysis::Decision::kCannotTell) {
    return below;
  } else if (c.samples < min_samples) {
    why = fmt::format(" is from {} samples, fewer than the {} {} needs", c.samples, min_samples,
                      min_samples > probes::kMinCiOperations ? "a p99" : "an interval");
  } else {
    why = fmt::format(" holds the limit {} inside its interval",
                      text::FormatNanos(static_cast<double>(limit_ns)));
  }
  c.outcome = model::CheckOutcome::kUnstable;
  c.undecided = true;
  c.message = fmt::format(
      "cannot tell: {}{}; more operations decide it (a longer --budget, or a run without "
      "--quick)",
      what, why);
  return below;
}

TailCount CountAbove(const std::vector<probes::HistogramBucket>& buckets, std::uint64_t limit_ns) {
  TailCount t;
  for (const probes::HistogramBucket& b : buckets) {
    t.samples += b.count;
    const int index = probes::Histogram::BucketOf(b.upper_bound_ns);
    if (probes::Histogram::BucketLow(index) > limit_ns) t.above += b.count;
  }
  return t;
}

bool DecidedOverByCount(const TailCount& t) {
  if (t.above == 0 || t.samples == 0) return false;
  // P(X >= above) = 1 - P(X <= above - 1).
  return 1.0 - probes::BinomialAtMost(t.samples, t.above - 1, 0.01) < kOneSidedChance;
}

}  // namespace durprobe::gate
