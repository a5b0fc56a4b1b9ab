// compare's analysis: each path's cost split into per-sync, per-operation and metadata parts,
// and a verdict per path against the first one. Reads report targets; measures nothing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "explain/causes.h"
#include "explain/compare_states.h"
#include "explain/trial.h"
#include "model/report.h"

namespace durprobe::explain {

inline constexpr const char* kCompareSchema = "durprobe.compare/1";

// A component's bounds from the 95% confidence intervals of the medians it adds up (the sum of
// the lows and of the highs; for per sync, the synced low minus the write high and so on): how
// far the noise of this run could move it. Equal to the median where no interval was measured.
struct Bounds {
  double low = 0, high = 0;
};

// Medians in ns; absent when a needed measurement is missing or failed.
struct Components {
  // fdatasync overwrite (one write + sync) minus a plain write of the same size.
  std::optional<double> per_sync_ns;
  // write + read + open/close + stat, the calls every database operation makes.
  std::optional<double> per_op_ns;
  // create + rename + the directory fsync after a create.
  std::optional<double> metadata_ns;
  std::optional<Bounds> per_sync_bounds, per_op_bounds, metadata_bounds;
};

Components ComponentsOf(const model::Target& target);

// Each component as the compare table's rows add it up (the console prints these under it).
inline constexpr const char* kPerSyncParts = "fdatasync overwrite - op write";
inline constexpr const char* kPerOpParts = "op write + op read + op open_close + op stat";
inline constexpr const char* kMetadataParts =
    "op create + op rename + dir_fsync create (sync call: the directory fsync alone)";

// What dominates a path's verdict against the first.
enum class Dominant {
  kPerSync,  // a component, kPenaltyRatio or more slower beyond the noise
  kPerOp,
  kMetadata,
  kNone,  // no penalty (or one within the noise)
  // The path's syncs do not reach stable storage (analysis/durability_risk.h), so it is faster
  // because it keeps nothing.
  kNotDurable,
  // A component could not be measured on both paths and every SQLite commit both ran is
  // kPenaltyRatio or more slower here.
  kCommit,
  kUnmeasured,  // no component and no commit to compare
  // A component's penalty cannot be decided from what was timed (analysis/decision.h): a ratio
  // past kPenaltyRatio whose noise bounds reach 1x, or any ratio from too few operations for a
  // bound. Never presented as a penalty nor as its absence.
  kUndecided,
};
// The last enumerator, up to which NameOf's table is counted: one added after it moves this.
inline constexpr Dominant kLastDominant = Dominant::kUndecided;
// "per_sync", "per_op", "metadata", "none", "not_durable", "commit", "unmeasured", "undecided"
std::string_view NameOf(Dominant d);

struct Verdict {
  std::string path;
  Dominant dominant = Dominant::kNone;
  // The dominant component's ratio against the first path (commit: the largest commit ratio;
  // unmeasured: 0).
  double ratio = 1.0;
  double per_sync_ratio = 0, per_op_ratio = 0, metadata_ratio = 0;  // 0: not measurable
  // Each ratio's bounds from the components' bounds (absent where a ratio is not measurable).
  std::optional<Bounds> per_sync_bounds, per_op_bounds, metadata_bounds;
  std::vector<std::string> not_durable;  // the codes that void durability on this path
  // not_durable, and only its directory syncs reach no device (its file syncs do: bindfs): the
  // headline names that loss, never "keeps nothing".
  bool loses_directory_syncs_only = false;
  // Where a device alternated between two states: the per-sync probe in the same state on this
  // path and the first. When every state's ratio is below kPenaltyRatio, a per-sync gap of the
  // mixtures is the time each path spent in the slow state, not a penalty.
  std::vector<StateRatio> states;
  std::string message;
  // Why this path differs from the first, best first (explain/causes.h), from the
  // differences of the two mounts (identity keys left out unless nothing else differs).
  std::vector<Difference> differences;
  std::vector<Cause> causes;
};

// A verdict for every path after the first, against the first. A component counts as a penalty
// from kPenaltyRatio up, and only when the low bound of its ratio is above 1 (beyond this run's
// noise); a larger ratio within the noise, or any ratio without a bound, is "undecided".
inline constexpr double kPenaltyRatio = 1.25;
std::vector<Verdict> CompareVerdicts(const std::vector<model::Target>& targets);

// The verdict in a few words, as every format heads it: "per_op penalty", "no significant
// penalty", "could not be measured", "cannot tell yet"; for a path that loses syncs, "faster
// because it keeps nothing" only when its ratio says faster ("keeps nothing" without a ratio,
// "not durable, and no faster" with one of 1x or more), and "loses directory syncs" where that is
// all it loses.
std::string VerdictHeadline(const Verdict& v);

// The verdict whose leading cause scores highest (the one --try tests), or null.
const Verdict* LeadingVerdict(const std::vector<Verdict>& verdicts);

struct Comparison {
  model::Context context;
  std::vector<model::Target> targets;
  std::vector<Verdict> verdicts;
  std::optional<TrialResult> tried;  // set by compare --try
};

}  // namespace durprobe::explain
