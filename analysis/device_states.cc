#include "analysis/device_states.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/drift.h"
#include "model/finding_codes.h"
#include "model/labels.h"
#include "model/percentiles.h"
#include "text/units.h"

namespace durprobe::analysis {
namespace {

struct Group {
  double mean = 0.0, var = 0.0;
};

Group GroupOf(const std::vector<double>& logs, std::size_t lo, std::size_t hi) {
  Group g;
  for (std::size_t i = lo; i < hi; ++i) g.mean += logs[i];
  g.mean /= double(hi - lo);
  for (std::size_t i = lo; i < hi; ++i) g.var += (logs[i] - g.mean) * (logs[i] - g.mean);
  g.var /= double(hi - lo);
  return g;
}

double MedianOf(const std::vector<double>& sorted, std::size_t lo, std::size_t hi) {
  return probes::Median(std::vector<double>(sorted.begin() + std::ptrdiff_t(lo),
                                            sorted.begin() + std::ptrdiff_t(hi)));
}

// The series that shows the states, as values in time order with the time each stands for.
struct Evidence {
  std::string what;
  std::vector<double> values;
  std::vector<double> weights;  // ns each point stands for
  LevelSplit split;
};

// A reference sample's state level: its median, the latency most of its syncs had. Not its mean
// (drift's level): a sample that straddles a switch, or holds a few slow syncs, has a mean
// between the states (seen here: medians of 120-600 us and 2.9-4.0 ms, means spread evenly
// from 150 us to 4.1 ms).
double StateLevel(const model::ReferenceSample& r) {
  return r.p50_ns > 0 ? double(r.p50_ns) : ReferenceLevel(r);
}

// The reference probe's samples: each stands for the time to the next one (the last for the
// mean of the others, or 1 when it is alone in time).
std::optional<Evidence> ReferenceEvidence(const model::Target& t) {
  if (t.reference.size() < kMinStatePoints) return std::nullopt;
  Evidence e;
  e.what = "the reference probe (" + t.reference_probe + ")";
  for (std::size_t i = 0; i < t.reference.size(); ++i) {
    e.values.push_back(StateLevel(t.reference[i]));
    double span = i + 1 < t.reference.size()
                      ? double(t.reference[i + 1].start_ns - t.reference[i].start_ns)
                      : 0.0;
    e.weights.push_back(span);
  }
  double spans = 0.0;
  for (std::size_t i = 0; i + 1 < e.weights.size(); ++i) spans += e.weights[i];
  e.weights.back() = spans > 0 ? spans / double(e.weights.size() - 1) : 1.0;
  std::optional<LevelSplit> split = SplitLevels(e.values);
  if (!split) return std::nullopt;
  e.split = *split;
  return e;
}

bool OnTheDevice(const probes::ProbeResult& p) {
  return p.outcome == probes::Outcome::kOk && p.spec.primitive != probes::Primitive::kNone;
}

std::vector<double> WindowLevels(const probes::ProbeResult& p) {
  std::vector<double> v;
  for (const probes::SeriesPoint& s : p.series) v.push_back(double(s.p50_ns));
  return v;
}

// The sync probe with the most windows whose windows show two levels.
std::optional<Evidence> ProbeEvidence(const model::Target& t) {
  std::optional<Evidence> best;
  for (const probes::ProbeResult& p : t.probes) {
    if (!OnTheDevice(p)) continue;
    std::vector<double> levels = WindowLevels(p);
    if (levels.size() < kMinProbeStateWindows) continue;
    if (best && levels.size() <= best->values.size()) continue;
    std::optional<LevelSplit> split = SplitLevels(levels);
    if (!split) continue;
    best = Evidence{model::ProbeLabel(p.spec), levels, std::vector<double>(levels.size(), 1.0),
                    *split};
  }
  return best;
}

double SlowShare(const Evidence& e) {
  double slow = 0.0, all = 0.0;
  for (std::size_t i = 0; i < e.values.size(); ++i) {
    all += e.weights[i];
    if (e.values[i] >= e.split.threshold_ns) slow += e.weights[i];
  }
  return all > 0 ? slow / all : 0.0;
}

// With --repeat: the p50 of the windows `in` picks in each repeat that spent kMinRepeatStateOps
// operations there; n 0 when the probe ran once.
template <typename Pick>
model::RepeatSpread RepeatsOf(const probes::ProbeResult& p, Pick in) {
  std::vector<probes::Histogram> each;
  for (const probes::SeriesPoint& s : p.series) {
    if (s.repeat >= each.size()) each.resize(s.repeat + 1);
    if (in(s)) probes::AddBuckets(each[s.repeat], s.buckets);
  }
  if (each.size() < 2) return {};
  std::vector<double> p50s;
  for (const probes::Histogram& h : each) {
    if (h.count() >= model::kMinRepeatStateOps) p50s.push_back(double(probes::Percentile(h, 0.5)));
  }
  return model::SpreadOf(p50s, model::kLatencyResolution);
}

// A probe's figures over the windows `in` picks.
template <typename Pick>
model::StateFigures FiguresOf(const probes::ProbeResult& p, model::DeviceState state, Pick in) {
  probes::Histogram whole, sync;
  std::size_t windows = 0;
  for (const probes::SeriesPoint& s : p.series) {
    if (!in(s)) continue;
    ++windows;
    probes::AddBuckets(whole, s.buckets);
    probes::AddBuckets(sync, s.sync_buckets);
  }
  model::StateFigures f;
  f.state = state;
  f.time_share = p.series.empty() ? 0.0 : double(windows) / double(p.series.size());
  f.ops = whole.count();
  f.p50_ns = probes::Percentile(whole, 0.5);
  if (model::PercentileSupported(0.99, f.ops)) f.p99_ns = probes::Percentile(whole, 0.99);
  if (p.has_sync_part && sync.count() > 0) {
    f.sync_ops = sync.count();
    f.sync_p50_ns = probes::Percentile(sync, 0.5);
    if (model::PercentileSupported(0.99, f.sync_ops))
      f.sync_p99_ns = probes::Percentile(sync, 0.99);
  }
  const probes::Histogram& rule = f.sync_ops > 0 ? sync : whole;
  f.rule_p50_ci = probes::MedianConfidenceInterval(rule);
  f.rule_p99_ci = probes::QuantileConfidenceInterval(rule, 0.99);
  f.p50_repeats = RepeatsOf(p, in);
  if (Ranged(f.p50_repeats)) f.p50_ns = static_cast<std::uint64_t>(f.p50_repeats.median);
  return f;
}

bool HasBuckets(const probes::ProbeResult& p) {
  return std::all_of(p.series.begin(), p.series.end(),
                     [](const probes::SeriesPoint& s) { return !s.buckets.empty(); });
}

// The state of the reference samples around the probe, when the last one before it and the
// first one after it agree; nullopt otherwise.
std::optional<model::DeviceState> StateAround(const model::Target& t, const probes::ProbeResult& p,
                                              const LevelSplit& reference) {
  if (p.series.empty()) return std::nullopt;
  std::uint64_t from = p.series.front().start_ns, to = p.series.back().start_ns;
  const model::ReferenceSample *before = nullptr, *after = nullptr;
  for (const model::ReferenceSample& r : t.reference) {
    if (r.start_ns <= from) before = &r;
    if (r.start_ns >= to && after == nullptr) after = &r;
  }
  if (before == nullptr || after == nullptr) return std::nullopt;
  bool slow_before = StateLevel(*before) >= reference.threshold_ns;
  bool slow_after = StateLevel(*after) >= reference.threshold_ns;
  if (slow_before != slow_after) return std::nullopt;
  // The probe's own level must agree: the device can switch and switch back between two samples
  // (seen here: the samples around an fdatasync probe at 202 and 226 us, the probe at 3.30 ms). A
  // sync probe costs one to a few flushes, within the states' gap when the states are far apart; a
  // probe on the other side of the reference's threshold is placed nowhere.
  bool slow_probe = double(p.latency.p50) >= reference.threshold_ns;
  if (slow_probe != slow_before) return std::nullopt;
  return slow_before ? model::DeviceState::kSlow : model::DeviceState::kFast;
}

std::vector<model::ProbeStates> StatesOfProbes(const model::Target& t, const Evidence& e,
                                               bool by_reference) {
  std::vector<model::ProbeStates> out;
  for (std::size_t i = 0; i < t.probes.size(); ++i) {
    const probes::ProbeResult& p = t.probes[i];
    if (!OnTheDevice(p) || !HasBuckets(p)) continue;
    model::ProbeStates ps{i, {}};
    if (std::optional<LevelSplit> own = SplitLevels(WindowLevels(p))) {
      // Its two levels must lie on either side of the device's threshold where the reference
      // drew it: a probe that stepped from 130 us to 540 us split by itself while the device's
      // states were ~160 us and ~4 ms, and its upper level is not the device's slow state.
      if (by_reference &&
          (own->fast_ns >= e.split.threshold_ns || own->slow_ns < e.split.threshold_ns)) {
        continue;
      }
      double cut = own->threshold_ns;
      ps.states.push_back(
          FiguresOf(p, model::DeviceState::kFast,
                    [&](const probes::SeriesPoint& s) { return double(s.p50_ns) < cut; }));
      ps.states.push_back(
          FiguresOf(p, model::DeviceState::kSlow,
                    [&](const probes::SeriesPoint& s) { return double(s.p50_ns) >= cut; }));
    } else if (by_reference) {
      if (std::optional<model::DeviceState> state = StateAround(t, p, e.split)) {
        ps.states.push_back(FiguresOf(p, *state, [](const probes::SeriesPoint&) { return true; }));
      }
    }
    if (!ps.states.empty()) out.push_back(std::move(ps));
  }
  return out;
}

std::string Percent(double share) { return fmt::format("{:.0f}%", share * 100.0); }

std::string Message(const model::Target& t) {
  const model::DeviceStates& d = *t.device_states;
  std::size_t both = 0, slow_only = 0, fast_only = 0;
  for (const model::ProbeStates& ps : t.probe_states) {
    if (ps.states.size() == 2)
      ++both;
    else if (ps.states[0].state == model::DeviceState::kSlow)
      ++slow_only;
    else
      ++fast_only;
  }
  return fmt::format(
      "this device alternates between ~{} and ~{} ({}), in the slow state {} of the time "
      "that series covers; probes measured in both states: {}, in the slow state only: {}, in "
      "the fast state only: {}. Figures per state: the lines under the probe table, JSON "
      "probes[].states. Plan for the slow state: check judges a timing rule on it where the "
      "probe saw it",
      text::FormatNanos(d.fast_ns), text::FormatNanos(d.slow_ns), d.evidence, Percent(d.slow_share),
      both, slow_only, fast_only);
}

}  // namespace

std::optional<LevelSplit> SplitLevels(const std::vector<double>& values) {
  const std::size_t n = values.size();
  if (n < kMinStatePoints) return std::nullopt;
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  std::vector<double> logs;
  for (double v : sorted) logs.push_back(std::log(std::max(v, 1.0)));
  std::size_t best_k = 0;
  double best = 0.0;
  for (std::size_t k = kMinPointsPerState; k + kMinPointsPerState <= n; ++k) {
    Group a = GroupOf(logs, 0, k), b = GroupOf(logs, k, n);
    double between = double(k) * double(n - k) * (b.mean - a.mean) * (b.mean - a.mean);
    if (between > best) best = between, best_k = k;
  }
  if (best_k == 0) return std::nullopt;
  Group a = GroupOf(logs, 0, best_k), b = GroupOf(logs, best_k, n);
  LevelSplit s;
  s.fast_ns = MedianOf(sorted, 0, best_k);
  s.slow_ns = MedianOf(sorted, best_k, n);
  s.fast_n = best_k;
  s.slow_n = n - best_k;
  s.threshold_ns = std::sqrt(sorted[best_k - 1] * sorted[best_k]);
  // The pooled within-group spread, weighted by size: two points that happen to lie close
  // together at the top of a noisy series do not make a narrow group of their own.
  double pooled = std::max((double(best_k) * a.var + double(n - best_k) * b.var) / double(n),
                           kMinLogSd * kMinLogSd);
  double separation = (b.mean - a.mean) / std::sqrt(pooled);
  if (s.fast_ns <= 0 || s.slow_ns / s.fast_ns < kMinStateRatio ||
      s.slow_ns - s.fast_ns < kMinDriftNs || separation < kMinStateSeparation) {
    return std::nullopt;
  }
  return s;
}

void AddDeviceStates(model::Target& target) {
  std::erase_if(target.findings,
                [](const model::Finding& f) { return f.code == model::codes::kDeviceStates; });
  target.device_states.reset();
  target.probe_states.clear();
  std::optional<Evidence> e = ReferenceEvidence(target);
  const bool by_reference = e.has_value();
  if (!e) e = ProbeEvidence(target);
  if (!e) return;
  target.device_states =
      model::DeviceStates{e->what, e->split.fast_ns, e->split.slow_ns, SlowShare(*e)};
  target.probe_states = StatesOfProbes(target, *e, by_reference);
  target.findings.push_back({model::Severity::kInfo, model::codes::kDeviceStates, Message(target)});
}

const model::StateFigures* StateOf(const model::Target& target, std::size_t probe,
                                   model::DeviceState state) {
  for (const model::ProbeStates& ps : target.probe_states) {
    if (ps.probe != probe) continue;
    for (const model::StateFigures& f : ps.states) {
      if (f.state == state) return &f;
    }
  }
  return nullptr;
}

const model::StateFigures* SlowStateOf(const model::Target& target, std::size_t probe) {
  return StateOf(target, probe, model::DeviceState::kSlow);
}

bool SawBothStates(const model::Target& target, std::size_t probe) {
  return std::any_of(
      target.probe_states.begin(), target.probe_states.end(),
      [&](const model::ProbeStates& ps) { return ps.probe == probe && ps.states.size() == 2; });
}

}  // namespace durprobe::analysis
