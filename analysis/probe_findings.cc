#include "analysis/probe_findings.h"

#include <fmt/format.h>

#include "model/finding_codes.h"
#include "model/labels.h"
#include "text/units.h"

namespace durprobe::analysis {

std::vector<model::Finding> ProbeErrorFindings(const model::Target& target) {
  std::vector<model::Finding> out;
  for (const probes::ProbeResult& r : target.probes) {
    if (r.outcome != probes::Outcome::kError) continue;
    out.push_back({model::Severity::kFail, model::codes::kProbeError,
                   fmt::format("{} {} {} B could not be measured: {}. Its figures stop at the "
                               "failure; a failed sync means the storage may have lost writes.",
                               probes::NameOf(r.spec.primitive), probes::NameOf(r.spec.pattern),
                               r.spec.write_size, r.reason)});
  }
  for (const probes::OpCostResult& r : target.op_costs) {
    if (r.outcome != probes::Outcome::kError) continue;
    out.push_back({model::Severity::kFail, model::codes::kProbeError,
                   fmt::format("{} could not be measured: {}", probes::NameOf(r.op), r.reason)});
  }
  for (const probes::ConcurrencyResult& r : target.concurrency) {
    if (r.outcome != probes::Outcome::kError) continue;
    out.push_back(
        {model::Severity::kFail, model::codes::kProbeError,
         fmt::format("{} could not be measured: {}", model::ConcurrencyLabel(r.spec), r.reason)});
  }
  return out;
}

std::vector<model::Finding> CpuThrottledFindings(const model::Target& target) {
  std::vector<model::Finding> out;
  for (const probes::ProbeResult& r : target.probes) {
    if (!r.cpu.throttled()) continue;
    const platform::CpuThrottleCount& t = r.cpu.throttling;
    std::string quota =
        r.cpu.quota_cpus > 0 ? fmt::format(" of {:.2g} CPUs", r.cpu.quota_cpus) : std::string();
    out.push_back(
        {model::Severity::kWarn, model::codes::kCpuThrottled,
         fmt::format("{} was throttled by the CPU quota{}: {} of {} periods ran out of quota, "
                     "{} held off the CPU in all; its latencies include that wait, which is "
                     "the CPU limit's, not the disk's. Give the process more CPU, or measure "
                     "where no quota applies.",
                     model::ProbeLabel(r.spec), quota, t.throttled, t.periods,
                     text::FormatNanos(static_cast<double>(t.throttled_ns)))});
  }
  return out;
}

}  // namespace durprobe::analysis
