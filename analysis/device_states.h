// The device's states: a disk that alternates between two levels of flush latency over the run
// (a cloud volume's fast and slow flushes, tens of microseconds for a while and milliseconds
// later), told apart from noise and from a layer's cost, and each probe's figures per state, so a
// gate can be judged on the state to plan for (the slow one) and a diagnosis can name both.
// Reads data only (docs/accuracy.md, "The device's states").
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "model/report.h"

namespace durprobe::analysis {

// Two levels of a series, when the series has them: the slow level at least kMinStateRatio times
// the fast one (and kMinDriftNs above it), and the two groups' logarithms kMinStateSeparation
// pooled standard deviations apart, so a disk's noise does not split: in 3,000 simulated series
// of 4 to 40 log-normal points, none split at a spread of 30%, 0.5% at 50% and 3.5% at 70%,
// while states 40x apart (as this machine's disk) split every time and 5x apart four in five.
inline constexpr double kMinStateRatio = 4.0;
inline constexpr double kMinStateSeparation = 4.0;
// The fewest points of a series looked at, and in each state.
inline constexpr std::size_t kMinStatePoints = 4;
inline constexpr std::size_t kMinPointsPerState = 2;
// A probe's own windows tell the device's states (without enough reference samples) only from
// this many: four windows are 0.4 s of one probe, too short to say the device alternates.
inline constexpr std::size_t kMinProbeStateWindows = 6;

struct LevelSplit {
  double fast_ns = 0.0, slow_ns = 0.0;  // the median of each group
  double threshold_ns = 0.0;            // a value at or above it is in the slow state
  std::size_t fast_n = 0, slow_n = 0;
};

// The split of the values (latencies, ns, in any order) between the largest fast value and the
// smallest slow one that separates the logarithms best (Otsu's between-group variance), when it
// passes the thresholds above; nullopt otherwise.
std::optional<LevelSplit> SplitLevels(const std::vector<double>& values);

// Sets target.device_states and target.probe_states from the reference probe's samples (each
// one's median; or, when they do not show two states, the sync probe with the most windows, at
// least kMinProbeStateWindows, that does), and replaces the
// device_states finding with one for what the target holds now; clears all three when the device
// held one level.
void AddDeviceStates(model::Target& target);

// The probe's figures in state, when it was measured in both states or wholly in that one;
// nullptr otherwise (no states, or only the other state seen).
const model::StateFigures* StateOf(const model::Target& target, std::size_t probe,
                                   model::DeviceState state);
// StateOf the slow state.
const model::StateFigures* SlowStateOf(const model::Target& target, std::size_t probe);
// Whether the probe was measured in both states.
bool SawBothStates(const model::Target& target, std::size_t probe);

}  // namespace durprobe::analysis
