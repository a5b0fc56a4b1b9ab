// Sample compare targets: a path whose sync, per-operation and metadata costs are known
// multiples of a base.
#pragma once

#include <string>

#include "model/report.h"

namespace durprobe::testing_support {

using probes::FileOp;
using probes::Pattern;
using probes::Primitive;

// A median timed on 100 operations, its 95% confidence interval within 2% of it (as a steady
// device gives): a bound compare's decisions can read (analysis/decision.h).
inline probes::LatencySummary MedianOf(std::uint64_t p50) {
  probes::LatencySummary l;
  l.count = 100;
  l.p50 = p50;
  l.p50_ci_low = p50 - p50 / 50;
  l.p50_ci_high = p50 + p50 / 50;
  l.p90 = p50 + p50 / 10;
  l.p99 = p50 + p50 / 2;
  l.max = 2 * p50;
  return l;
}

// Named apart from sqlite_samples.h's Probe: two inline functions of one name and signature with
// different bodies would be one function to the linker (the sanitizer build found it).
inline probes::ProbeResult CompareProbe(Primitive prim, Pattern pat, std::uint64_t p50,
                                        std::uint64_t sync_p50) {
  probes::ProbeResult r;
  r.spec = {prim, pat, prim == Primitive::kDirFsync ? 0u : 4096u};
  r.ops = 100;
  r.latency = MedianOf(p50);
  r.has_sync_part = sync_p50 > 0;
  if (r.has_sync_part) r.sync_latency = MedianOf(sync_p50);
  return r;
}

inline probes::OpCostResult Op(FileOp op, std::uint64_t p50) {
  probes::OpCostResult r;
  r.op = op;
  r.ops = 100;
  r.latency = MedianOf(p50);
  return r;
}

// A path whose sync, per-op and metadata costs are scaled by the given factors.
inline model::Target PathWith(const std::string& path, double sync, double op, double meta) {
  model::Target t;
  t.path = path;
  auto u = [](double v) { return static_cast<std::uint64_t>(v); };
  t.probes = {
      CompareProbe(Primitive::kFdatasync, Pattern::kOverwrite, u(1000 * op + 100000 * sync),
                   u(100000 * sync)),
      CompareProbe(Primitive::kDirFsync, Pattern::kCreate, u(50000 * meta), u(40000 * meta))};
  t.op_costs = {Op(FileOp::kWrite, u(1000 * op)),     Op(FileOp::kRead, u(500 * op)),
                Op(FileOp::kOpenClose, u(1500 * op)), Op(FileOp::kStat, u(800 * op)),
                Op(FileOp::kCreate, u(5000 * meta)),  Op(FileOp::kRename, u(4000 * meta))};
  return t;
}

}  // namespace durprobe::testing_support
