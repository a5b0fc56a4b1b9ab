// A timing rule against the drift seen during the run. A latency or a rate measured while the
// device sat at one level would have read differently at another: when the reference probe's
// level moved during the run (analysis/probe_drift.h RunLevelRange), the value is scaled
// to the lowest and highest level seen (latency in proportion to the level, rates inversely),
// and a rule whose limit falls inside that range could have passed or failed by the moment it
// was measured. It is then `unstable` with the range, which check reports as not measured
// reliably (exit 2), never a pass or a fail by luck (docs/provisioning.md, "Unstable rules").
#pragma once

#include <cstdint>

#include "model/report.h"

namespace durprobe::report {

// How the value a rule read depends on the device's level.
enum class Scaling {
  kWithLatency,  // a latency: twice the level, twice the value
  kInverse,      // a rate: twice the level, half the value
};

// The reference level while [from, to] was measured on t (ns since the run started).
double LevelDuring(const Target& t, std::uint64_t from, std::uint64_t to);

// Marks c (a pass or a fail of a rule that read *c.measured, taken at level_ns) unstable when
// its threshold lies within the range the drift of t allows; leaves it as it is otherwise.
void JudgeWithinDrift(CheckResult& c, const Target& t, double level_ns, Scaling scaling);

}  // namespace durprobe::report
