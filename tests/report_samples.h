// A sample report for the reporter tests: one measured probe with round figures, one
// unsupported probe, one finding.
#pragma once

#include "model/report.h"

namespace durprobe::testing_support {

using model::Report;
using model::Severity;
using model::Target;

inline probes::ProbeResult SampleProbe() {
  probes::ProbeResult r;
  r.spec = {probes::Primitive::kFdatasync, probes::Pattern::kAppend, 4096};
  r.ops = 1234;
  r.warmup_ops = 5;
  r.seconds = 0.5;
  r.ops_per_sec = 2468;
  r.converged = true;
  r.latency = {.count = 1234,
               .min = 300000,
               .p50 = 400000,
               .p90 = 450000,
               .p99 = 900000,
               .p999 = 1500000,
               .max = 2000000,
               .mean = 410000.5,
               .p50_ci_low = 395000,
               .p50_ci_high = 405000,
               .p50_ci_relative = 0.0125};
  r.has_sync_part = true;
  r.sync_latency = r.latency;
  r.sync_latency.p50 = 380000;
  return r;
}

inline probes::ProbeResult UnsupportedProbe() {
  probes::ProbeResult r;
  r.spec = {probes::Primitive::kFullFsync, probes::Pattern::kOverwrite, 4096};
  r.outcome = probes::Outcome::kUnsupported;
  r.reason = "F_FULLFSYNC is macOS only";
  return r;
}

inline Report SampleReport() {
  Report report;
  report.context = {.durprobe_version = "0.1.0",
                    .host = "h",
                    .os = "Linux",
                    .kernel = "6.1",
                    .machine = "x86_64",
                    .sqlite_version = "3.40.1",
                    .build_type = "Release",
                    .optimized = true,
                    .assertions = false,
                    .started_at = "2026-11-30T00:00:00Z",
                    .command = "probe"};
  Target t;
  t.path = "/data";
  t.probes = {SampleProbe(), UnsupportedProbe()};
  t.findings = {{Severity::kWarn, "example_code", "An example."}};
  report.targets.push_back(t);
  return report;
}

}  // namespace durprobe::testing_support
