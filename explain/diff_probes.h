// diff's probe side: the raw probes both reports measured (same primitive, pattern and size),
// each operation's mean time split into the sync call and the rest (the write, or the create),
// and a verdict from them for reports without SQLite rows in common (`durprobe probe` reports).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/report.h"

namespace durprobe::explain {

struct DiffVerdict;  // explain/diff_analysis.h

struct ProbeDiff {
  std::string primitive, pattern;
  std::uint64_t write_size = 0;
  std::uint32_t writes_per_op = 1;     // writes of write_size per operation (ProbeSpec)
  std::uint64_t p50_a = 0, p50_b = 0;  // one whole operation, ns
  double mean_a = 0, mean_b = 0;       // one whole operation, ns
  double sync_a = 0, sync_b = 0;       // mean time in the sync call (the whole write for O_*SYNC)
  // Shares of the mean gap (mean_b - mean_a): they add up to 1 when the gap is not zero.
  double share_sync = 0, share_non_sync = 0;
};

// Every probe measured (status ok) in both targets, in a's order.
std::vector<ProbeDiff> DiffProbes(const model::Target& a, const model::Target& b);

// "fdatasync overwrite 4 KiB"
std::string LabelOf(const ProbeDiff& d);

// A concurrency row (--writers) both reports measured: the same writers, mode, primitive, size.
struct ConcurrencyDiff {
  probes::ConcurrencySpec spec;
  double aggregate_a = 0, aggregate_b = 0;  // synced ops/s of all writers
  std::uint64_t p50_a = 0, p50_b = 0;       // each sync, ns
};
// Every concurrency row measured (status ok) in both targets, in a's order.
std::vector<ConcurrencyDiff> DiffConcurrency(const model::Target& a, const model::Target& b);

// The verdict of reports without SQLite rows in common: probes weigh by how far apart their mean
// times are (|log| of the ratio; the widest goes to *weight); the factor is sync_latency when the
// sync calls carry most of the weighted gap and non_sync when the rest does (the write, the
// create: the filesystem layer); the message quotes the probe furthest apart.
DiffVerdict ProbeVerdict(const std::vector<ProbeDiff>& probes, double* weight);

}  // namespace durprobe::explain
