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
probes::FlushCounting CountingFor(platform::Platform& platform, const model::Target& target,
                                  bool count_flushes);

// The reserve that measures until a probe's claims can be decided: rule's own reserved_ops (the
// plan's: check's probes keep probes::kTailMinOps, the fewest a p99 rule reads), raised for a
// durable probe whose flushes are counted on a device to kMinFlushEvidenceOps
// (analysis/device_flushes.h: fewer prove nothing). The probe runs them past its share of the
// budget when its operations are slow, until run_deadline_ns at the latest (0: no deadline), so
// the plain writes before it (the page-cache baseline, each probe's setup on a slow FUSE server)
// can shorten a sync probe but never leave it without the evidence its verdict needs.
// ops_so_far: what earlier rounds or repeats of the same probe on the same path counted, which
// the reserve needs only to top up. part_until_ns (when not kWholeRun): the plan's own reserve
// ends then (its part of the time left), the flush evidence (StopRule::evidence_ops) still at
// run_deadline_ns. With a part, the flush count is also settled (StopRule::flush_count_decides):
// the control goes on after the operations, within the part, while a neighbour's flushes leave
// it undecided; compare's slices, given no part, stay as they are timed.
inline constexpr std::uint64_t kWholeRun = ~std::uint64_t{0};
probes::StopRule ReserveFlushEvidence(probes::StopRule rule, const probes::ProbeSpec& spec,
                                      std::uint64_t run_deadline_ns, std::uint64_t ops_so_far = 0,
                                      std::uint64_t part_until_ns = kWholeRun);

}  // namespace durprobe::run
