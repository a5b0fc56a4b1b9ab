// The plan the fake-clock schedule tests count syncs with: one fdatasync overwrite 4 KiB probe
// of 5 timed operations, no warm-up, on a 1 MiB file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "run/plan.h"

namespace durprobe::run {

inline constexpr std::uint64_t kMs = 1'000'000;
// One reference sample: its setup fsync, 2 warm-up and 40 timed syncs (run/reference.h).
inline constexpr int kReferenceSyncs = 43;

inline Plan FakeProbePlan(std::vector<std::string> paths) {
  Plan plan;
  plan.paths = std::move(paths);
  plan.run_probes = true;
  plan.probes.specs = {{probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096}};
  plan.probes.rule.warmup_ops = 0;
  plan.probes.rule.max_ops = 5;
  plan.probes.op_options.file_size = 1 << 20;
  return plan;
}

}  // namespace durprobe::run
