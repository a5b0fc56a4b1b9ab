// A timing rule against the drift seen during the run. A latency or a rate measured while the
// device sat at one level would have read differently at another: when the reference probe's
// level moved during the run (analysis/probe_drift.h RunLevelRange), the value is scaled
// to the lowest and highest level seen (latency in proportion to the level, rates inversely),
// and a rule whose limit falls inside that range could have passed or failed by the moment it
// was measured. It is then `unstable` with the range, which check reports as not measured
// reliably (exit 2), never a pass or a fail by luck (docs/provisioning.md, "Unstable rules"),
// unless it was measured in a two-state device's slow state (InSlowState): judged as measured.
#pragma once

#include <cstdint>

#include "analysis/probe_drift.h"
#include "model/report.h"

namespace durprobe::gate {

// How the value a rule read depends on the device's level.
enum class Scaling {
  kWithLatency,  // a latency: twice the level, twice the value
  kInverse,      // a rate: twice the level, half the value
};

// A device with two states (its reference levels at least kStatesApart apart: a flush in tens of
// microseconds for a while, milliseconds later, as cloud disks do) is in its slow state while the
// reference probe reads at least kSlowStateShare of the highest level seen. A rule measured there
// is judged as measured: the slow state is the one a gate plans for, so it is not unstable.
inline constexpr double kStatesApart = 4.0;
inline constexpr double kSlowStateShare = 0.5;
bool InSlowState(const analysis::LevelRange& range, double level_ns);

// The reference level while [from, to] was measured on t (ns since the run started).
double LevelDuring(const model::Target& t, std::uint64_t from, std::uint64_t to);

// Marks c (a pass or a fail of a rule that read *c.measured, taken at level_ns) unstable when
// its threshold lies within the range the drift of t allows; leaves it as it is otherwise.
void JudgeWithinDrift(model::CheckResult& c, const model::Target& t, double level_ns,
                      Scaling scaling);

}  // namespace durprobe::gate
