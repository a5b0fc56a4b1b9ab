// A probe that could not measure says so as a finding, with the error and its errno text, so
// every reporter shows it next to the figures that stop there (PostgreSQL's rule: a failed sync
// is reported once, never retried into a success).
#pragma once

#include <vector>

#include "model/report.h"

namespace durprobe::analysis {

// One `probe_error` fail finding per probe (and op-cost probe, and concurrency cell) whose outcome
// is an error.
std::vector<model::Finding> ProbeErrorFindings(const model::Target& target);

// One `cpu_throttled` warning per probe whose cgroup ran out of CPU quota during its timed
// phase (probes::CpuUse), with the counts: its latencies include time the process was held off
// the CPU, which is no property of the disk.
std::vector<model::Finding> CpuThrottledFindings(const model::Target& target);

}  // namespace durprobe::analysis
