// The measured side of cause ranking: what moved between two paths (or two reports' paths), as
// ratios b over a of the primitives that tell the causes apart (explain/causes.h reads
// it). Pure: reads the model.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "explain/compare_states.h"
#include "model/report.h"

namespace durprobe::explain {

struct ConfigDiff;  // explain/diff_analysis.h

// What a cause can move. Each is a median (or mean) of one side over the other's.
enum class Signal {
  kOverwrite,  // the sync call of fdatasync overwrite (fsync when fdatasync was not run)
  kAppend,     // the sync call of fdatasync append (fsync append)
  kDirSync,    // the directory fsync alone after a create (after a rename)
  kPerOp,      // plain calls without a sync: write + read + open/close + stat, or the write alone
  kMetadata,   // create + rename (the create before a directory fsync)
  kSyncCount,  // SQLite's syncs per commit, the configuration furthest apart
  kReference,  // the reference probe's level over the run (the device's state); unset where
               // either side's syncs skip the flush (barriers off): its reference is the cause
};
// The last enumerator, up to which NameOf's table is counted: one added after it moves this.
inline constexpr Signal kLastSignal = Signal::kReference;
inline constexpr std::size_t kSignalCount = static_cast<std::size_t>(kLastSignal) + 1;
std::string_view NameOf(Signal s);                 // "fdatasync overwrite", "directory fsync", ...
std::string FormatSignal(Signal s, double value);  // "1.03 ms", or "2.00" syncs per commit

// A ratio of this much (or its inverse) is a move; under it the two are "about equal".
inline constexpr double kMoveRatio = 1.25;

// A probe's or an operation's median is evidence only from this many operations, the count a
// median's interval needs (probes::kMinCiOperations): a compare --quick on a starved machine
// timed one operation per probe, and a single write that waited for the CPU ranked a bind mount
// above the FUSE server beside it. With fewer, the signal is unset (neither for nor against).
inline constexpr std::uint64_t kMinEvidenceOps = probes::kMinCiOperations;

// Per side, the state a cause can stand for besides the ratios.
struct SideState {
  bool drifted = false;      // a latency_drift finding
  bool not_durable = false;  // voiding findings, or targets[].durability says not_durable
  std::vector<std::string> not_durable_codes;
  std::optional<double> ebs_volume_exceeded_ms;    // EBS: over the volume's IOPS/throughput
  std::optional<double> ebs_instance_exceeded_ms;  // EBS: over the instance's EBS limits
};

// How far the sync probes may be from the reference probe's move and still have moved with it.
inline constexpr double kWithReferenceRatio = 1.5;

// The sync probes against the reference probe, where both sides' reference probes read the
// device and their levels are a move (kMoveRatio) apart.
struct WithReference {
  double reference = 0;  // the reference probe level, b over a
  double probes = 0;     // the sync signals both sides have (geometric mean), b over a
  // Each of at least two sync signals within kWithReferenceRatio of the reference's move (the
  // fdatasync overwrite repeats the reference probe's own operation: another must agree), the
  // per-operation cost not moved where it was measured, and both sides' syncs durable: the gap
  // is the device's state, not the paths.
  bool proportional = false;
  // The sync probes' move is more than kWithReferenceRatio from the reference's either way:
  // the reference's gap does not explain theirs.
  bool apart = false;
};

struct Signature {
  std::array<std::optional<double>, kSignalCount> ratio;  // b over a; unset: not measured on both
  std::array<std::array<double, 2>, kSignalCount> value;  // a's and b's (ns; syncs per commit)
  SideState side[2];                                      // a, b
  std::optional<WithReference> with_reference;  // unset: the reference did not move, or no sync
  // Where a device alternated between two states: fdatasync overwrite in each state measured on
  // both sides, b over a (explain/compare_states.h); empty otherwise.
  std::vector<StateRatio> states;
};

// The sync signals (a flush in each): what the device's state moves alike.
bool IsSyncSignal(Signal s);

// From the probes, per-operation costs, reference samples and findings of both targets, and the
// configurations diff matched (null for compare). with_reference is measured only for targets
// from separate runs (diff): compare's paths share their rounds, and so the device's states.
Signature MeasureSignature(const model::Target& a, const model::Target& b,
                           const std::vector<ConfigDiff>* configs, bool separate_runs);

}  // namespace durprobe::explain
