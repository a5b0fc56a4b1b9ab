// The conditions a side ran under, as the knowledge table's matchers (explain/cause_table.h):
// a CPU quota and an I/O limit each report's context records, an EBS volume's or instance's
// limits, and another process flushing the path's device, counted in the idle slices of every
// measurement (analysis/neighbours.h). Each stands on its own record: a quota or a limit equal
// on both sides moves nothing.
#pragma once

#include "explain/cause_table.h"

namespace durprobe::explain::matchers {

// The tighter CPU quota's side (diff only: compare's paths share one process).
bool CpuQuotaOn(const CausePair& p, CauseMatch& m);
// The side whose device has the tighter cgroup I/O limit.
bool IoLimitOn(const CausePair& p, CauseMatch& m);
// The side whose device another process kept busy (kNeighbourFlushesPerSec, beyond the noise).
bool Neighbour(const CausePair& p, CauseMatch& m);
// The side whose EBS volume (instance) exceeded its limits for longer.
bool EbsVolume(const CausePair& p, CauseMatch& m);
bool EbsInstance(const CausePair& p, CauseMatch& m);

}  // namespace durprobe::explain::matchers
