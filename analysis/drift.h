// Drift: a device that changes state during a run (burst credits running out, a neighbour's
// I/O). Finds level shifts in the latency over time the report keeps (the reference probe's
// samples, each long probe's series, each SQLite configuration's repetitions) and turns them into
// the latency_drift finding; the correlation uses the same thresholds to bring probe latencies to
// the moment a configuration ran. Reads data only (docs/accuracy.md, "Drift").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/drift_level.h"
#include "model/report.h"

namespace durprobe::analysis {

// The noise floor of a group of latencies' spread (of their logarithms): 5% even for equal values.
inline constexpr double kMinLogSd = 0.05;

struct TimedValue {
  std::uint64_t t_ns = 0;  // since the run started
  double value = 0.0;      // a latency, ns
};

// A sustained change of level: the median before and after the point at index.
struct Step {
  std::size_t index = 0;  // first point of the new level
  std::uint64_t at_ns = 0;
  double before = 0.0, after = 0.0;
};

// Change points by binary segmentation on the logarithm of the values: the best split of a
// segment is kept when each side has at least min_side points, the two sides' medians differ by
// kMinDriftRatio and kMinDriftNs, and the difference of their mean logs is at least four
// standard errors (three when a side is as short as two points) of that difference. In time
// order.
std::vector<Step> FindSteps(const std::vector<TimedValue>& points, std::size_t min_side = 2);

// The reference probe's samples as a series: each one's level at its start.
std::vector<TimedValue> ReferenceSeries(const model::Target& target);

// A configuration's repetitions as a series: each one's mean commit time at its start.
std::vector<TimedValue> RepetitionSeries(const sqlite_bench::CommitResult& result);

// One latency series of a target, as drift analysis reads it.
struct DriftSeries {
  std::string what;  // "the reference probe (fdatasync overwrite 4 KiB)", "WAL/FULL commits"
  std::vector<TimedValue> points;
  std::vector<Step> steps;
  // Whose series: the reference probe's (read by no one), or a figure's the user reads: the
  // probe or SQLite configuration at index in target.probes or target.sqlite.
  enum class Of { kReference, kProbe, kSqlite } of = Of::kReference;
  std::size_t index = 0;
};

// The target's series that moved beyond their noise: the reference probe, the probes with a
// series of at least six windows, the SQLite configurations with at least four repetitions.
std::vector<DriftSeries> DriftedSeries(const model::Target& target);

// Replaces target's latency_drift finding (if any) by one for what it holds now, in one
// sentence: the largest step (of any series, or of the reference probe around a probe measured
// while the device moved, recomputed into target.moved, analysis/probe_drift.h), how many
// figures the drift touches, the device's states when the reference probe shows them,
// burst-credit throttling when the reference probe stepped from fast to slow for good, and what
// to do. The details stay in the JSON (targets[].reference, probes[].device_moved). Severity
// warn only when a figure the user reads (a probe's or SQLite configuration's) stepped within
// its own measurement and no other measurement of the same probe or configuration held steady
// (DriftWarns); info otherwise.
void AddDriftFindings(model::Target& target);

bool HasDriftFinding(const model::Target& target);

// Whether drifted holds a figure the user reads that stepped within its own measurement and was
// not measured again, steadily, by another result of the same probe or configuration.
bool DriftWarns(const model::Target& target, const std::vector<DriftSeries>& drifted);

}  // namespace durprobe::analysis
