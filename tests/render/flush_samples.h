// Probes whose device flushes were counted (probes/flush_tally.h), for every format's reporter
// test: one counted on vda, one whose counting was unavailable, and the sample report with them.
#pragma once

#include "tests/report_samples.h"

namespace durprobe::testing_support {

// 120 flushes on vda over 100 operations in 1 s, against a background of 1 flush in 50 ms idle
// (20 a second, 20 over the second): 1.00 flush per operation.
inline probes::ProbeResult FlushCountedProbe() {
  probes::ProbeResult r = SampleProbe();
  r.device_flushes = {
      .counted = true,
      .how = "the device under the path",
      .devices =
          {{.name = "vda", .flushes = 120, .writes = 100, .control_flushes = 2, .idle_flushes = 1}},
      .ops = 100,
      .ns = 1'000'000'000,
      .control_ops = 10,
      .control_ns = 100'000'000,
      .idle_ns = 50'000'000};
  return r;
}

inline probes::ProbeResult FlushUnavailableProbe() {
  probes::ProbeResult r = SampleProbe();
  r.spec.pattern = probes::Pattern::kOverwrite;
  r.device_flushes = {.counted = true, .unavailable = "no block device under tmpfs"};
  return r;
}

// The sample report with its measured probe counted on vda, then the same probe uncounted
// (overwrite), then the unsupported one.
inline Report FlushReport() {
  Report report = SampleReport();
  probes::ProbeResult uncounted = SampleProbe();
  uncounted.spec.pattern = probes::Pattern::kOverwrite;
  report.targets[0].probes = {FlushCountedProbe(), uncounted, UnsupportedProbe()};
  return report;
}

}  // namespace durprobe::testing_support
