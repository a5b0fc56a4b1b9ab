// The path-by-path schedule (run, probe, sqlite, check; run/plan.h Schedule::kPathByPath): each
// target measured to the end before the next one starts.
#pragma once

#include "run/schedule.h"

namespace durprobe::run {

void RunPathByPath(RunState& state);

}  // namespace durprobe::run
