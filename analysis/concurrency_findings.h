// What the concurrency rows mean (targets[].concurrency[], docs/probes.md "Concurrent syncers"):
// whether concurrent syncs serialise or are merged, and how far the spec sheet's queue-depth
// figure is from the serial synced one a database sees. Runs before any writer.
#pragma once

#include <optional>
#include <vector>

#include "model/report.h"

namespace durprobe::analysis {

// A mode's shape, read from its one-writer row and its row with the most writers (at least 2).
struct ConcurrencyShape {
  probes::WriterMode mode = probes::WriterMode::kThreads;
  std::uint32_t writers = 0;    // the most writers measured
  double scaling = 0.0;         // aggregate at `writers` / aggregate at one writer
  double latency_growth = 0.0;  // p50 at `writers` / p50 at one writer
  bool serialised = false;      // aggregate flat (under 1.5x) while p50 grows with N (>= N/2)
  bool merged = false;          // aggregate grows (>= max(1.5, N/2)) while p50 holds (<= 2x)
};
// One shape per mode that has a one-writer row and a row with more writers, both measured.
std::vector<ConcurrencyShape> ConcurrencyShapes(const std::vector<probes::ConcurrencyResult>& rows);

// Sets serial_vs_concurrent's serial side (the fdatasync overwrite probe at the queue-depth
// write size, else the one-writer threads row) and ratio, then adds concurrent_syncs_serialise,
// concurrent_syncs_merge and spec_sheet_iops_ratio as the rows show them.
void AddConcurrencyFindings(model::Target& target);

}  // namespace durprobe::analysis
