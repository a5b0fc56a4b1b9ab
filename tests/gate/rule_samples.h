// The fixtures the rule tests share: a probe with given percentiles, a report of one target,
// and etcd's WAL rule (p99 under 10 ms).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "gate/rules.h"
#include "model/report.h"
#include "probes/probe_result.h"

namespace durprobe::gate::rule_samples {

inline constexpr probes::ProbeSpec kWal{probes::Primitive::kFdatasync,
                                        probes::Pattern::kPreallocated, 2300};

inline probes::ProbeResult Probe(probes::ProbeSpec spec, std::uint64_t p50, std::uint64_t p95,
                                 std::uint64_t p99, std::uint64_t max = 0) {
  probes::ProbeResult r;
  r.spec = spec;
  r.ops = 1000;
  r.seconds = 2.0;
  r.ops_per_sec = 500;
  r.has_sync_part = true;
  r.sync_latency = {.count = 1000,
                    .p50 = p50,
                    .p95 = p95,
                    .p99 = p99,
                    .max = max ? max : p99,
                    .p50_ci_low = p50 - 10,
                    .p50_ci_high = p50 + 10,
                    .p99_ci_low = p99 - 100,
                    .p99_ci_high = p99 + 100};
  r.latency = r.sync_latency;
  return r;
}

inline model::Report OneTarget(std::vector<probes::ProbeResult> probes) {
  model::Report report;
  model::Target t;
  t.path = "/data";
  t.probes = std::move(probes);
  report.targets.push_back(t);
  return report;
}

inline LatencyRule P99Under10ms() {
  return {.name = "wal_p99",
          .spec = kWal,
          .stat = LatencyStat::kP99,
          .max_ns = 10'000'000,
          .severe_ns = 100'000'000,
          .severe_why = "heartbeat"};
}

}  // namespace durprobe::gate::rule_samples
