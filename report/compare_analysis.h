// compare's analysis: each path's cost split into per-sync, per-operation and metadata parts,
// and a verdict per path against the first one. Reads report targets; measures nothing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/report.h"

namespace durprobe::report {

inline constexpr const char* kCompareSchema = "durprobe.compare/1";

// Medians in ns; absent when a needed measurement is missing or failed.
struct Components {
  // fdatasync overwrite (one write + sync) minus a plain write of the same size.
  std::optional<double> per_sync_ns;
  // write + read + open/close + stat, the calls every database operation makes.
  std::optional<double> per_op_ns;
  // create + rename + the directory fsync after a create.
  std::optional<double> metadata_ns;
};

Components ComponentsOf(const Target& target);

// Each component as the compare table's rows add it up (the console prints these under it).
inline constexpr const char* kPerSyncParts = "fdatasync overwrite - op write";
inline constexpr const char* kPerOpParts = "op write + op read + op open_close + op stat";
inline constexpr const char* kMetadataParts =
    "op create + op rename + dir_fsync create (sync call: the directory fsync alone)";

struct Verdict {
  std::string path;
  std::string dominant;  // per_sync | per_op | metadata | none
  double ratio = 1.0;    // the dominant component's ratio against the first path
  double per_sync_ratio = 0, per_op_ratio = 0, metadata_ratio = 0;  // 0: not measurable
  std::string message;
};

// A verdict for every path after the first, against the first. A component counts as a penalty
// from kPenaltyRatio up.
inline constexpr double kPenaltyRatio = 1.25;
std::vector<Verdict> CompareVerdicts(const std::vector<Target>& targets);

struct Comparison {
  Context context;
  std::vector<Target> targets;
  std::vector<Verdict> verdicts;
};

}  // namespace durprobe::report
