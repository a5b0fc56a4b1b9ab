#include "analysis/ebs_findings.h"

#include <fmt/format.h>

#include "model/finding_codes.h"
#include "text/units.h"

namespace durprobe::analysis {
namespace {

std::string Exceeded(std::uint64_t iops_us, std::uint64_t tp_us) {
  std::string out;
  if (iops_us > 0)
    out = fmt::format("its IOPS for {}", text::FormatNanos(static_cast<double>(iops_us) * 1000.0));
  if (tp_us > 0) {
    out += fmt::format("{}its throughput for {}", out.empty() ? "" : " and ",
                       text::FormatNanos(static_cast<double>(tp_us) * 1000.0));
  }
  return out;
}

}  // namespace

std::vector<model::Finding> EbsFindings(const platform::EbsStats& d) {
  std::vector<model::Finding> out;
  if (d.volume_exceeded_iops_us > 0 || d.volume_exceeded_tp_us > 0) {
    std::string what = Exceeded(d.volume_exceeded_iops_us, d.volume_exceeded_tp_us);
    out.push_back({model::Severity::kWarn, model::codes::kEbsVolumeLimitExceeded,
                   fmt::format("the EBS volume ({}) exceeded its provisioned {} during the run: "
                               "I/O was throttled then, so latencies measured in that time are "
                               "the volume's limit, not the storage path; provision more IOPS or "
                               "throughput (gp3, io2), or issue fewer syncs per commit",
                               d.device, what.substr(4))});
  }
  if (d.instance_exceeded_iops_us > 0 || d.instance_exceeded_tp_us > 0) {
    std::string what = Exceeded(d.instance_exceeded_iops_us, d.instance_exceeded_tp_us);
    out.push_back({model::Severity::kWarn, model::codes::kEbsInstanceLimitExceeded,
                   fmt::format("the instance exceeded its EBS {} during the run ({}): every "
                               "volume of the instance was throttled then; a larger or "
                               "EBS-optimized instance type raises the limit",
                               what.substr(4), d.device)});
  }
  return out;
}

}  // namespace durprobe::analysis
