// The faults phase on one path (`durprobe faults`): each filesystem of the plan (the path's own
// by default) made afresh on a crash device in the path's scratch for every experiment, the
// fsync-error experiments and SQLite's commit on a failing sync run on it, and what the results
// mean for a database added as findings.
#pragma once

#include "model/report.h"
#include "platform/scratch.h"
#include "run/schedule.h"

namespace durprobe::run {

void RunFaultsOn(RunState& s, model::Target& target, platform::ScratchDir& scratch);

}  // namespace durprobe::run
