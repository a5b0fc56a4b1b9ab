// Where a target's flushes are counted: the devices its identification names
// (platform::DevicesToCount), for the probes, the SQLite configurations and the concurrency
// cells measured on it (probes/flush_tally.h).
#pragma once

#include "model/report.h"
#include "platform/platform.h"
#include "probes/flush_tally.h"
#include "probes/probe_spec.h"
#include "probes/timed_loop.h"

namespace durprobe::run {

// Unavailable, with the reason, when the target was not identified; nothing to count (no
// device_flushes in the report) when the plan counts no flushes.
probes::FlushCounting CountingFor(platform::Platform& platform, const report::Target& target,
                                  bool count_flushes);

// The reserve that measures until the flush-count claim can be decided: a durable probe whose
// flushes are counted on a device runs at least kMinFlushEvidenceOps operations
// (analysis/device_flushes.h: fewer prove nothing), past its share of the budget when its
// operations are slow, until run_deadline_ns at the latest (0: no deadline). So the plain
// writes before it (the page-cache baseline, each probe's setup on a slow FUSE server) can
// shorten a sync probe but never leave it without the evidence its verdict needs. ops_so_far:
// what earlier rounds of the same probe on the same path counted (compare's rounds merge), which
// the reserve needs only to top up. Other probes, or no counting, leave rule as it is.
probes::StopRule ReserveFlushEvidence(probes::StopRule rule, const probes::ProbeSpec& spec,
                                      std::uint64_t run_deadline_ns, std::uint64_t ops_so_far = 0);

}  // namespace durprobe::run
