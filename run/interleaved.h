// The interleaved schedule (compare; run/plan.h Schedule::kInterleaved): every path measured in
// turn, round after round, so drift and noise fall on all paths alike.
#pragma once

#include "run/schedule.h"

namespace durprobe::run {

void RunInterleaved(RunState& state);

}  // namespace durprobe::run
