// Probes whose device flushes were counted (probes/flush_tally.h), for every format's reporter
// test: one counted on vda, one whose counting was unavailable, and the sample report with them.
#pragma once

#include "tests/report_samples.h"

namespace durprobe::testing_support {

// 1,020 flushes on vda over 1,000 operations in 1 s, against 2 flushes in the control's 100 ms
// (20 a second, 20 over the second, 0.02 an operation: a quiet background): 1.00 flush per
// operation.
inline probes::ProbeResult FlushCountedProbe() {
  probes::ProbeResult r = SampleProbe();
  r.device_flushes = {.counted = true,
                      .how = "the device under the path",
                      .devices = {{.name = "vda",
                                   .flushes = 1020,
                                   .writes = 1000,
                                   .control_flushes = 2,
                                   .idle_flushes = 1}},
                      .ops = 1000,
                      .ns = 1'000'000'000,
                      .control_ops = 10,
                      .control_ns = 100'000'000,
                      .idle_ns = 50'000'000};
  return r;
}

// The same probe beside a busy neighbour: 100 operations in 1 s, 120 flushes, the control's 20
// a second making 0.20 an operation: "1.00 (bg 0.20)".
inline probes::ProbeResult FlushInNoiseProbe() {
  probes::ProbeResult r = FlushCountedProbe();
  r.device_flushes.devices[0].flushes = 120;
  r.device_flushes.devices[0].writes = 100;
  r.device_flushes.ops = 100;
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
