// The device's level around each probe, from the reference probe's samples (run/reference.h:
// one before each probe, in compare one before each round on each path, and one after the
// probes): a probe measured while the level moved is marked with the levels before and after it
// (Target::moved), and check's timing rules learn how far the level moved over the run, so a
// rule that would flip within that range is not called a pass or a fail (gate/).
// Reads data only (docs/accuracy.md, "Drift").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/report.h"

namespace durprobe::analysis {

// The reference probe's level around [from, to] (ns since the run started): the average of the
// last sample that started by `from` and the first that started at or after `to`, the one
// there is, or 0 when there is neither.
double ReferenceNear(const std::vector<model::ReferenceSample>& samples, std::uint64_t from,
                     std::uint64_t to);

// When a probe ran: the start of its first series window and of its last; nullopt for a probe
// with no series (unsupported, failed before its first window).
struct Window {
  std::uint64_t from = 0, to = 0;
};
std::optional<Window> WindowOf(const probes::ProbeResult& probe);

// The probes of target measured while the device moved: the reference samples from the last
// one before the probe to the first one after it span the drift thresholds (drift.h Drifted).
// Writes without a sync (primitive none) measure the page cache and are left out.
std::vector<model::DeviceMoved> MovedProbes(const model::Target& target);

// The lowest and highest level of the reference probe over the whole run, when they pass the
// drift thresholds; nullopt when the device held still (or was sampled fewer than twice).
struct LevelRange {
  double low_ns = 0.0, high_ns = 0.0;
};
std::optional<LevelRange> RunLevelRange(const model::Target& target);

}  // namespace durprobe::analysis
