#include "explain/compare_states.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "analysis/device_states.h"
#include "model/labels.h"
#include "text/units.h"

namespace durprobe::explain {
namespace {

// The first fdatasync overwrite probe that measured something, by its index in t.probes.
std::optional<std::size_t> PerSyncProbe(const model::Target& t) {
  for (std::size_t i = 0; i < t.probes.size(); ++i) {
    const probes::ProbeResult& r = t.probes[i];
    if (r.spec.primitive == probes::Primitive::kFdatasync &&
        r.spec.pattern == probes::Pattern::kOverwrite && r.outcome == probes::Outcome::kOk &&
        r.ops > 0) {
      return i;
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<StateRatio> StateRatios(const model::Target& t, const model::Target& base) {
  std::vector<StateRatio> out;
  if (!t.device_states && !base.device_states) return out;
  const std::optional<std::size_t> here = PerSyncProbe(t), there = PerSyncProbe(base);
  if (!here || !there || !(t.probes[*here].spec == base.probes[*there].spec)) return out;
  for (model::DeviceState s : {model::DeviceState::kSlow, model::DeviceState::kFast}) {
    const model::StateFigures* a = analysis::StateOf(t, *here, s);
    const model::StateFigures* b = analysis::StateOf(base, *there, s);
    if (a == nullptr || b == nullptr || a->p50_ns == 0 || b->p50_ns == 0) continue;
    out.push_back({.state = s,
                   .probe = model::ProbeLabel(t.probes[*here].spec),
                   .here_ns = double(a->p50_ns),
                   .base_ns = double(b->p50_ns),
                   .here_share = a->time_share,
                   .base_share = b->time_share,
                   .ratio = double(a->p50_ns) / double(b->p50_ns)});
  }
  return out;
}

bool NoPenaltyInAnyState(const std::vector<StateRatio>& ratios, double penalty) {
  bool slow = false;
  for (const StateRatio& r : ratios) {
    if (r.ratio >= penalty) return false;
    slow = slow || r.state == model::DeviceState::kSlow;
  }
  return slow;
}

bool SameInEveryState(const std::vector<StateRatio>& ratios, double within) {
  return NoPenaltyInAnyState(ratios, within) &&
         std::all_of(ratios.begin(), ratios.end(),
                     [&](const StateRatio& r) { return r.ratio > 1.0 / within; });
}

std::string StateRatiosText(const std::vector<StateRatio>& ratios) {
  std::string text;
  for (const StateRatio& r : ratios) {
    text += fmt::format("{} the {} state{}: {} against {} ({})",
                        text.empty() ? r.probe + " in" : std::string("; in"), NameOf(r.state),
                        r.state == model::DeviceState::kSlow ? " (the one to plan for)" : "",
                        text::FormatNanos(r.here_ns), text::FormatNanos(r.base_ns),
                        text::FormatRatio(r.ratio));
  }
  return text;
}

std::string StatesNote(const std::vector<StateRatio>& ratios, bool mixture_gap) {
  if (ratios.empty()) return "";
  std::string text = "; by the device's state (device_states): " + StateRatiosText(ratios);
  if (!mixture_gap) return text;
  const StateRatio& slow = ratios.front();  // NoPenaltyInAnyState: the slow state is measured
  return text + fmt::format(
                    "; no per-sync penalty in either state: the mixtures differ because this "
                    "path spent {:.0f}% of its time in the slow state and the first {:.0f}%",
                    slow.here_share * 100.0, slow.base_share * 100.0);
}

}  // namespace durprobe::explain
