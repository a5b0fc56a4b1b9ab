#include "report/analysis/probe_findings.h"

#include <fmt/format.h>

#include "report/model/labels.h"

namespace durprobe::report {

std::vector<Finding> ProbeErrorFindings(const Target& target) {
  std::vector<Finding> out;
  for (const probes::ProbeResult& r : target.probes) {
    if (r.outcome != probes::Outcome::kError) continue;
    out.push_back({Severity::kFail, "probe_error",
                   fmt::format("{} {} {} B could not be measured: {}. Its figures stop at the "
                               "failure; a failed sync means the storage may have lost writes.",
                               probes::NameOf(r.spec.primitive), probes::NameOf(r.spec.pattern),
                               r.spec.write_size, r.reason)});
  }
  for (const probes::OpCostResult& r : target.op_costs) {
    if (r.outcome != probes::Outcome::kError) continue;
    out.push_back({Severity::kFail, "probe_error",
                   fmt::format("{} could not be measured: {}", probes::NameOf(r.op), r.reason)});
  }
  for (const probes::ConcurrencyResult& r : target.concurrency) {
    if (r.outcome != probes::Outcome::kError) continue;
    out.push_back(
        {Severity::kFail, "probe_error",
         fmt::format("{} could not be measured: {}", ConcurrencyLabel(r.spec), r.reason)});
  }
  return out;
}

}  // namespace durprobe::report
