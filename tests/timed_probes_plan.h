// A plan of two probes with a fixed count of timed syncs, for the tests that make a device move
// at a known sync on the fault platform's fake clock (run/drift_marks_test.cc,
// run/check_remeasure_test.cc): the reference samples take 42 syncs each, the probes 400 (enough
// for a p99 under a limit: probes::kTailBoundOps).
#pragma once

#include <string>

#include "run/plan.h"

namespace durprobe::testing_support {

inline constexpr probes::ProbeSpec kTimedOverwrite{probes::Primitive::kFdatasync,
                                                   probes::Pattern::kOverwrite, 4096};
inline constexpr probes::ProbeSpec kTimedAppend{probes::Primitive::kFdatasync,
                                                probes::Pattern::kAppend, 4096};

// fdatasync overwrite and append 4 KiB, exactly 400 timed syncs each, no warm-up, in path.
inline run::Plan TwoTimedProbes(const std::string& path, const std::string& command = "probe") {
  run::Plan plan;
  plan.command = command;
  plan.paths = {path};
  plan.run_probes = true;
  plan.probes.specs = {kTimedOverwrite, kTimedAppend};
  plan.probes.rule.warmup_ops = 0;
  plan.probes.rule.warmup_ns = 0;
  plan.probes.rule.min_ops = 400;
  plan.probes.rule.max_ops = 400;
  plan.probes.rule.min_ns = 0;
  plan.probes.rule.max_ns = 60'000'000'000;
  plan.probes.op_options.file_size = 1 << 20;
  return plan;
}

}  // namespace durprobe::testing_support
