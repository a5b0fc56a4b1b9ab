// What the background load (check's --background-load, a preset's companion syncs) achieved on a
// path, as a finding: the conditions the rules were measured under.
#pragma once

#include "model/report.h"
#include "probes/background_load.h"

namespace durprobe::analysis {

// background_load (info), or background_load_short (warn) when any rate fell under 90% of the
// asked one or the load stopped on an error; the message gives the achieved and asked rates.
model::Finding LoadFinding(const probes::LoadOutcome& outcome);

}  // namespace durprobe::analysis
