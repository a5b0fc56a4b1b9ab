// What an EBS volume's own counters say about a run (targets[].ebs, platform/ebs_stats.h): time
// over the volume's provisioned IOPS or throughput, or over the instance's EBS limits, is time
// the cloud throttled this disk, and every latency measured then is the throttle's.
#pragma once

#include <vector>

#include "model/report.h"
#include "platform/ebs_stats.h"

namespace durprobe::analysis {

// ebs_volume_limit_exceeded and ebs_instance_limit_exceeded (warn), each when its time is not 0.
std::vector<model::Finding> EbsFindings(const platform::EbsStats& delta);

}  // namespace durprobe::analysis
