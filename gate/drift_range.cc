#include "gate/drift_range.h"

#include <fmt/format.h>

#include <optional>

#include "analysis/probe_drift.h"
#include "text/units.h"

namespace durprobe::gate {
namespace {

std::string InUnit(double v, model::CheckUnit unit) {
  if (unit == model::CheckUnit::kSeconds) return text::FormatNanos(v * 1e9);
  if (unit == model::CheckUnit::kNone) return text::FormatRate(v);
  return fmt::format("{} {}", text::FormatRate(v), model::NameOf(unit));
}

}  // namespace

bool InSlowState(const analysis::LevelRange& range, double level_ns) {
  return range.low_ns > 0 && range.high_ns >= kStatesApart * range.low_ns &&
         level_ns >= kSlowStateShare * range.high_ns;
}

double LevelDuring(const model::Target& t, std::uint64_t from, std::uint64_t to) {
  return analysis::ReferenceNear(t.reference, from, to);
}

void JudgeWithinDrift(model::CheckResult& c, const model::Target& t, double level_ns,
                      Scaling scaling) {
  if (!c.measured || level_ns <= 0) return;
  if (c.outcome != model::CheckOutcome::kPass && c.outcome != model::CheckOutcome::kFail) return;
  std::optional<analysis::LevelRange> range = analysis::RunLevelRange(t);
  if (!range) return;
  double m = *c.measured;
  double lo = scaling == Scaling::kWithLatency ? m * range->low_ns / level_ns
                                               : m * level_ns / range->high_ns;
  double hi = scaling == Scaling::kWithLatency ? m * range->high_ns / level_ns
                                               : m * level_ns / range->low_ns;
  // Both rules pass strictly below (latency) or at and above (rates) their threshold: either
  // way a range with its low end under the threshold and its high end at or over it holds a
  // passing and a failing value.
  if (!(lo < c.threshold && hi >= c.threshold)) return;
  if (InSlowState(*range, level_ns)) {
    c.message = fmt::format(
        "{} (measured in the device's slow state: the reference probe at {}, {} at its fastest "
        "in this run; a gate is judged on the slow state, the one to plan for)",
        c.message, text::FormatNanos(level_ns), text::FormatNanos(range->low_ns));
    return;
  }
  c.drift_low = lo;
  c.drift_high = hi;
  c.message = fmt::format(
      "unstable: the device moved during the run (the reference probe between {} and {}; {} "
      "when this was measured), so the value could have been anywhere from {} to {}, on both "
      "sides of the limit {}: neither a pass nor a fail can be told. Rerun at a quiet time or "
      "with a longer --budget. Measured: {}",
      text::FormatNanos(range->low_ns), text::FormatNanos(range->high_ns),
      text::FormatNanos(level_ns), InUnit(lo, c.unit), InUnit(hi, c.unit),
      InUnit(c.threshold, c.unit), c.message);
  c.outcome = model::CheckOutcome::kUnstable;
}

}  // namespace durprobe::gate
