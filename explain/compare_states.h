// compare's view of a device that alternated between a fast and a slow flush (device_states):
// the sync probe compare's per-sync component rests on, in the same state on a path and on the
// first, side by side. The mixtures compare's table sets side by side weigh each state by the
// time each path happened to spend in it; the same state on both sides does not.
#pragma once

#include <string>
#include <vector>

#include "model/report.h"

namespace durprobe::explain {

struct StateRatio {
  model::DeviceState state = model::DeviceState::kSlow;
  std::string probe;                          // "fdatasync overwrite 4 KiB"
  double here_ns = 0.0, base_ns = 0.0;        // the whole operation's p50 in that state
  double here_share = 0.0, base_share = 0.0;  // each probe's share of its time in that state
  double ratio = 0.0;                         // here / base
};

// fdatasync overwrite (compare's per-sync probe) in each state it was measured in on both t and
// base, the slow state first; empty where neither device showed two states or no state was
// measured on both.
std::vector<StateRatio> StateRatios(const model::Target& t, const model::Target& base);

// Whether the ratios cover the slow state and every one is below penalty: the paths cost the
// same in each state, and a mixture's gap is the time each spent in the slow one.
bool NoPenaltyInAnyState(const std::vector<StateRatio>& ratios, double penalty);

// Whether the ratios cover the slow state and every one is within `within` either way: the
// probe costs the same in each state on both sides (diff's drift cause reads it).
bool SameInEveryState(const std::vector<StateRatio>& ratios, double within);

// "fdatasync overwrite 4 KiB in the slow state (the one to plan for): 4.01 ms against 3.96 ms
// (1.01x); in the fast state: 130 us against 120 us (1.08x)".
std::string StateRatiosText(const std::vector<StateRatio>& ratios);
// What compare's verdict message adds where there are ratios ("" where none): "; by the
// device's state (device_states): " and the text above, and where mixture_gap (the per-sync
// ratio of the mixtures is a penalty and NoPenaltyInAnyState) that the gap is the time each path
// spent in the slow state.
std::string StatesNote(const std::vector<StateRatio>& ratios, bool mixture_gap);

}  // namespace durprobe::explain
