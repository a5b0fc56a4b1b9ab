// Plausibility findings on probe results: syncs that cost no more than a write, heavy tails,
// outliers, two-cluster distributions, and syncs faster than the device could flush.
#pragma once

#include <vector>

#include "model/report.h"

namespace durprobe::analysis {

// What is known about the storage behind a target (from inspect); all false when unknown.
struct StorageFacts {
  bool known = false;
  bool block_backed = false;  // a block device, as opposed to tmpfs, FUSE, a network share
  bool rotational = false;
  bool volatile_cache = false;  // queue/write_cache says "write back"
  bool fua = false;
};

// Thresholds, named so docs/findings.md can quote them.
inline constexpr double kNoopAddedNs = 10'000;           // a sync adding less than this to a write
inline constexpr double kTailRatio = 10.0;               // p99 / p50
inline constexpr double kOutlierRatio = 100.0;           // max / p50
inline constexpr double kRotationalFlushNs = 1'000'000;  // a spinning disk cannot flush faster
inline constexpr double kVolatileSsdFlushNs = 50'000;    // nor a volatile-cache SSD, typically

std::vector<model::Finding> PlausibilityFindings(const model::Target& target,
                                                 const StorageFacts& facts);

}  // namespace durprobe::analysis
