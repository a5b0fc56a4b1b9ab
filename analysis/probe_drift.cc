#include "analysis/probe_drift.h"

#include <algorithm>

#include "analysis/drift_level.h"

namespace durprobe::analysis {

double ReferenceNear(const std::vector<model::ReferenceSample>& samples, std::uint64_t from,
                     std::uint64_t to) {
  const model::ReferenceSample* before = nullptr;
  const model::ReferenceSample* after = nullptr;
  for (const model::ReferenceSample& r : samples) {
    if (r.start_ns <= from) before = &r;
    if (r.start_ns >= to && after == nullptr) after = &r;
  }
  if (before && after) return (ReferenceLevel(*before) + ReferenceLevel(*after)) / 2.0;
  if (before || after) return ReferenceLevel(*(before ? before : after));
  return 0.0;
}

std::optional<Window> WindowOf(const probes::ProbeResult& probe) {
  if (probe.series.empty()) return std::nullopt;
  return Window{probe.series.front().start_ns, probe.series.back().start_ns};
}

std::vector<model::DeviceMoved> MovedProbes(const model::Target& target) {
  std::vector<model::DeviceMoved> out;
  const std::vector<model::ReferenceSample>& ref = target.reference;
  for (std::size_t i = 0; i < target.probes.size(); ++i) {
    if (target.probes[i].spec.primitive == probes::Primitive::kNone) continue;  // no sync
    std::optional<Window> w = WindowOf(target.probes[i]);
    if (!w) continue;
    // The samples from the last one before the probe to the first one after it.
    std::size_t first = ref.size(), last = ref.size();
    for (std::size_t k = 0; k < ref.size(); ++k) {
      if (ref[k].start_ns <= w->from) first = k;
      if (ref[k].start_ns >= w->to && last == ref.size()) last = k;
    }
    if (first == ref.size() || last == ref.size() || last < first) continue;
    model::DeviceMoved m{i, ReferenceLevel(ref[first]), ReferenceLevel(ref[last]), 0.0, 0.0};
    m.low_ns = m.high_ns = m.before_ns;
    for (std::size_t k = first; k <= last; ++k) {
      m.low_ns = std::min(m.low_ns, ReferenceLevel(ref[k]));
      m.high_ns = std::max(m.high_ns, ReferenceLevel(ref[k]));
    }
    if (Drifted(m.low_ns, m.high_ns)) out.push_back(m);
  }
  return out;
}

std::optional<LevelRange> RunLevelRange(const model::Target& target) {
  if (target.reference.size() < 2) return std::nullopt;
  LevelRange r{ReferenceLevel(target.reference.front()), ReferenceLevel(target.reference.front())};
  for (const model::ReferenceSample& s : target.reference) {
    r.low_ns = std::min(r.low_ns, ReferenceLevel(s));
    r.high_ns = std::max(r.high_ns, ReferenceLevel(s));
  }
  if (!Drifted(r.low_ns, r.high_ns)) return std::nullopt;
  return r;
}

}  // namespace durprobe::analysis
