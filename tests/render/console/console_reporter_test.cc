// The probe table's text: a time in every time cell, "-" for a percentile the operation count
// cannot support (never the maximum under its name), columns aligned to the widest cell.
#include "render/console/console_reporter.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/report_samples.h"

namespace durprobe::report {
namespace {

using testing_support::SampleProbe;
using testing_support::UnsupportedProbe;

TEST(ConsoleReporterTest, ProbeTableText) {
  probes::ProbeResult few = SampleProbe();
  few.spec = {probes::Primitive::kOdsync, probes::Pattern::kOverwrite, 16384};
  few.ops = 50;
  few.ops_per_sec = 81.2;
  few.latency = {.count = 50,
                 .min = 18'000'000,
                 .p50 = 19'500'000,
                 .p90 = 21'000'000,
                 .p99 = 22'400'000,
                 .p999 = 22'400'000,
                 .max = 22'400'000,
                 .mean = 19'700'000,
                 .p50_ci_relative = 0.02};
  few.has_sync_part = false;
  std::ostringstream out;
  PrintProbeTable({SampleProbe(), few, UnsupportedProbe()}, out);
  EXPECT_EQ(
      out.str(),
      "primitive   pattern      size   ops  ops/s  p50 (95% CI)      p90     p99    p99.9      max "
      " sync p50\n"
      "fdatasync   append      4 KiB  1234  2,468    400 us ±1%"
      "   450 us  900 us  1.50 ms  2.00 ms    380 us\n"
      "odsync      overwrite  16 KiB    50   81.2   19.5 ms ±2%"
      "  21.0 ms       -        -  22.4 ms         -\n"
      "full_fsync  overwrite   4 KiB  unsupported: F_FULLFSYNC is macOS only\n"
      "  p90, p99, p99.9 \"-\": fewer operations than that percentile needs (10, 100, 1,000)\n");
}

}  // namespace
}  // namespace durprobe::report
