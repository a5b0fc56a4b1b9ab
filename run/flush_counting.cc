#include "run/flush_counting.h"

#include <algorithm>

#include "analysis/device_flushes.h"
#include "platform/block_counters.h"
#include "probes/primitive_ops.h"

namespace durprobe::run {

probes::FlushCounting CountingFor(platform::Platform& platform, const model::Target& target,
                                  bool count_flushes) {
  probes::FlushCounting c;
  if (!count_flushes) return c;
  if (!target.mount) {
    c.unavailable = "the path's mount could not be identified, so no device is known to count";
    return c;
  }
  platform::CountedDevices d = platform::DevicesToCount(platform, c.sys_root, *target.mount);
  c.devices = std::move(d.names);
  c.how = std::move(d.how);
  c.unavailable = std::move(d.unavailable);
  return c;
}

probes::StopRule ReserveFlushEvidence(probes::StopRule rule, const probes::ProbeSpec& spec,
                                      std::uint64_t run_deadline_ns, std::uint64_t ops_so_far,
                                      std::uint64_t part_until_ns) {
  std::uint64_t evidence = 0;
  if (!rule.flush_counting.devices.empty() && probes::OpsOf(spec.primitive).durable) {
    evidence = analysis::kMinFlushEvidenceOps;
  }
  const std::uint64_t want = std::max(rule.reserved_ops, evidence);
  rule.reserved_ops = want > ops_so_far ? want - ops_so_far : 0;
  rule.reserve_until_ns =
      rule.reserved_ops == 0 ? 0 : part_until_ns == kWholeRun ? run_deadline_ns : part_until_ns;
  rule.evidence_ops = evidence > ops_so_far ? evidence - ops_so_far : 0;
  rule.evidence_until_ns = rule.evidence_ops > 0 ? run_deadline_ns : 0;
  if (rule.evidence_ops > 0 && part_until_ns != kWholeRun) {
    rule.flush_count_decides = &analysis::FlushCountDecides;
    rule.settle_until_ns = part_until_ns;
  }
  return rule;
}

}  // namespace durprobe::run
