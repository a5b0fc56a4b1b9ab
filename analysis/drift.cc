#include "analysis/drift.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "analysis/probe_drift.h"
#include "model/finding_codes.h"
#include "model/labels.h"
#include "text/units.h"

namespace durprobe::analysis {
namespace {

constexpr std::size_t kMinProbeWindows = 6;  // a probe's series long enough to look at
constexpr std::size_t kMinRepetitions = 4;   // a configuration's repetitions, likewise
constexpr std::size_t kMinReference = 4;     // reference samples, likewise

struct Side {
  double mean = 0.0, sum_sq = 0.0, median = 0.0;
  std::size_t n = 0;
};

Side Describe(const std::vector<double>& logs, const std::vector<double>& values,
              const std::vector<std::size_t>& at) {
  Side s;
  s.n = at.size();
  std::vector<double> v;
  for (std::size_t i : at) s.mean += logs[i], v.push_back(values[i]);
  s.mean /= double(s.n);
  for (std::size_t i : at) s.sum_sq += (logs[i] - s.mean) * (logs[i] - s.mean);
  s.median = probes::Median(std::move(v));
  return s;
}

std::vector<std::size_t> Range(std::size_t lo, std::size_t hi) {
  std::vector<std::size_t> r;
  for (std::size_t i = lo; i < hi; ++i) r.push_back(i);
  return r;
}

// How many standard errors apart the mean logs of a and b are, when their medians pass the drift
// thresholds and the difference passes the bar for their sizes; 0 otherwise.
double Separation(const std::vector<double>& logs, const std::vector<double>& values,
                  const std::vector<std::size_t>& in_a, const std::vector<std::size_t>& in_b) {
  Side a = Describe(logs, values, in_a), b = Describe(logs, values, in_b);
  if (!Drifted(a.median, b.median)) return 0.0;
  std::size_t n = a.n + b.n;
  double var = n > 2 ? (a.sum_sq + b.sum_sq) / double(n - 2) : 0.0;
  var = std::max(var, kMinLogSd * kMinLogSd);
  double t = std::abs(a.mean - b.mean) / std::sqrt(var * (1.0 / double(a.n) + 1.0 / double(b.n)));
  double need = std::min(a.n, b.n) <= 2 ? 3.0 : 4.0;
  return t >= need ? t : 0.0;
}

double MedianAt(const std::vector<double>& values, const std::vector<std::size_t>& at) {
  std::vector<double> v;
  for (std::size_t i : at) v.push_back(values[i]);
  return probes::Median(std::move(v));
}

constexpr std::size_t kMaxPairSearch = 120;  // the O(n^3) search for an excursion and back

void Segment(const std::vector<TimedValue>& points, const std::vector<double>& logs,
             const std::vector<double>& values, std::size_t lo, std::size_t hi,
             std::size_t min_side, std::vector<Step>& out) {
  if (hi - lo < 2 * min_side) return;
  double best_t = 0.0;
  std::size_t best_k = 0;
  for (std::size_t k = lo + min_side; k + min_side <= hi; ++k) {
    double t = Separation(logs, values, Range(lo, k), Range(k, hi));
    if (t > best_t) best_t = t, best_k = k;
  }
  if (best_t > 0) {
    out.push_back({best_k, points[best_k].t_ns, MedianAt(values, Range(lo, best_k)),
                   MedianAt(values, Range(best_k, hi))});
    Segment(points, logs, values, lo, best_k, min_side, out);
    Segment(points, logs, values, best_k, hi, min_side, out);
    return;
  }
  // No single split: an excursion [i, j) away from a level the segment returns to.
  if (hi - lo > kMaxPairSearch || hi - lo < 3 * min_side) return;
  std::size_t best_i = 0, best_j = 0;
  for (std::size_t i = lo + min_side; i + 2 * min_side <= hi; ++i) {
    for (std::size_t j = i + min_side; j + min_side <= hi; ++j) {
      std::vector<std::size_t> outside = Range(lo, i), inside = Range(i, j);
      for (std::size_t x = j; x < hi; ++x) outside.push_back(x);
      double t = Separation(logs, values, outside, inside);
      if (t > best_t) best_t = t, best_i = i, best_j = j;
    }
  }
  if (best_t == 0) return;
  double before = MedianAt(values, Range(lo, best_i));
  double inside = MedianAt(values, Range(best_i, best_j));
  double after = MedianAt(values, Range(best_j, hi));
  out.push_back({best_i, points[best_i].t_ns, before, inside});
  out.push_back({best_j, points[best_j].t_ns, inside, after});
  Segment(points, logs, values, best_i, best_j, min_side, out);
}

std::string Seconds(std::uint64_t ns) { return fmt::format("{:.1f} s", double(ns) / 1e9); }

// A step from fast to slow that the run never came back from: what a volume that spent its
// burst credits does.
std::string BurstCredits(const DriftSeries& s) {
  if (s.steps.size() != 1 || s.steps[0].after <= s.steps[0].before) return "";
  const Step& st = s.steps[0];
  return fmt::format(
      " Suspected burst-credit throttling: {} stayed near {} for the first {} of the run, then "
      "near {} ({} slower) to its end.",
      s.what, text::FormatNanos(st.before), Seconds(st.at_ns - s.points.front().t_ns),
      text::FormatNanos(st.after), text::FormatRatio(st.after / st.before));
}

void AddIfDrifted(std::string what, std::vector<TimedValue> points, std::size_t min_points,
                  std::vector<DriftSeries>& out, DriftSeries::Of of = DriftSeries::Of::kReference,
                  std::size_t index = 0) {
  if (points.size() < min_points) return;
  std::vector<Step> steps = FindSteps(points);
  if (steps.empty()) return;
  out.push_back({std::move(what), std::move(points), std::move(steps), of, index});
}

double StepRatio(double before, double after) {
  double lo = std::min(before, after), hi = std::max(before, after);
  return lo > 0 ? hi / lo : 0.0;
}

// The largest step of the run, in words: "WAL/FULL commits: 210 us to 3.85 ms at 4.2 s (18x)".
std::string LargestStep(const model::Target& target, const std::vector<DriftSeries>& drifted) {
  std::string text;
  double largest = 0.0;
  for (const DriftSeries& s : drifted) {
    for (const Step& st : s.steps) {
      if (StepRatio(st.before, st.after) <= largest) continue;
      largest = StepRatio(st.before, st.after);
      text = fmt::format("{}: {} to {} at {} ({})", s.what, text::FormatNanos(st.before),
                         text::FormatNanos(st.after), Seconds(st.at_ns),
                         text::FormatRatio(st.after / st.before));
    }
  }
  for (const model::DeviceMoved& m : target.moved) {
    if (StepRatio(m.before_ns, m.after_ns) <= largest || m.probe >= target.probes.size()) continue;
    largest = StepRatio(m.before_ns, m.after_ns);
    text =
        fmt::format("the reference probe {} before {} and {} after it ({})",
                    text::FormatNanos(m.before_ns), model::ProbeLabel(target.probes[m.probe].spec),
                    text::FormatNanos(m.after_ns), text::FormatRatio(m.after_ns / m.before_ns));
  }
  return text;
}

// The figures the user reads that the drift touches: each probe or SQLite configuration that
// stepped within its own measurement or was measured while the reference probe moved, once.
std::size_t FiguresTouched(const model::Target& target, const std::vector<DriftSeries>& drifted) {
  std::vector<std::size_t> probes, sqlite;
  auto add = [](std::vector<std::size_t>& v, std::size_t i) {
    if (std::find(v.begin(), v.end(), i) == v.end()) v.push_back(i);
  };
  for (const DriftSeries& s : drifted) {
    if (s.of == DriftSeries::Of::kProbe) add(probes, s.index);
    if (s.of == DriftSeries::Of::kSqlite) add(sqlite, s.index);
  }
  for (const model::DeviceMoved& m : target.moved) add(probes, m.probe);
  return probes.size() + sqlite.size();
}

bool SteppedWithin(const std::vector<DriftSeries>& drifted, DriftSeries::Of of, std::size_t i) {
  return std::any_of(drifted.begin(), drifted.end(),
                     [&](const DriftSeries& s) { return s.of == of && s.index == i; });
}

}  // namespace

std::vector<TimedValue> RepetitionSeries(const sqlite_bench::CommitResult& result) {
  std::vector<TimedValue> pts;
  for (const sqlite_bench::Repetition& r : result.repetition_windows) {
    if (r.commits > 0) pts.push_back({r.start_ns, double(r.commit_ns) / double(r.commits)});
  }
  return pts;
}

std::vector<Step> FindSteps(const std::vector<TimedValue>& points, std::size_t min_side) {
  std::vector<double> values, logs;
  for (const TimedValue& p : points) {
    values.push_back(p.value);
    logs.push_back(std::log(std::max(p.value, 1.0)));
  }
  std::vector<Step> steps;
  Segment(points, logs, values, 0, points.size(), std::max<std::size_t>(min_side, 2), steps);
  std::sort(steps.begin(), steps.end(),
            [](const Step& a, const Step& b) { return a.index < b.index; });
  return steps;
}

std::vector<TimedValue> ReferenceSeries(const model::Target& target) {
  std::vector<TimedValue> ref;
  for (const model::ReferenceSample& r : target.reference)
    ref.push_back({r.start_ns, ReferenceLevel(r)});
  return ref;
}

std::vector<DriftSeries> DriftedSeries(const model::Target& target) {
  std::vector<DriftSeries> out;
  AddIfDrifted("the reference probe (" + target.reference_probe + ")", ReferenceSeries(target),
               kMinReference, out);
  for (const probes::ProbeResult& p : target.probes) {
    if (p.spec.primitive == probes::Primitive::kNone) continue;  // the page cache, not the device
    std::vector<TimedValue> pts;
    for (const probes::SeriesPoint& s : p.series) pts.push_back({s.start_ns, double(s.p50_ns)});
    AddIfDrifted(model::ProbeLabel(p.spec), pts, kMinProbeWindows, out, DriftSeries::Of::kProbe,
                 static_cast<std::size_t>(&p - target.probes.data()));
  }
  for (const model::SqliteEntry& e : target.sqlite) {
    AddIfDrifted(sqlite_bench::Label(e.result.config) + " commits", RepetitionSeries(e.result),
                 kMinRepetitions, out, DriftSeries::Of::kSqlite,
                 static_cast<std::size_t>(&e - target.sqlite.data()));
  }
  return out;
}

bool HasDriftFinding(const model::Target& target) {
  return std::any_of(target.findings.begin(), target.findings.end(),
                     [](const model::Finding& f) { return f.code == model::codes::kLatencyDrift; });
}

bool DriftWarns(const model::Target& target, const std::vector<DriftSeries>& drifted) {
  for (const DriftSeries& s : drifted) {
    if (s.of == DriftSeries::Of::kProbe) {
      const probes::ProbeSpec& spec = target.probes[s.index].spec;
      bool steady_again = false;
      for (std::size_t j = 0; j < target.probes.size(); ++j) {
        steady_again = steady_again || (j != s.index && target.probes[j].spec == spec &&
                                        target.probes[j].outcome == probes::Outcome::kOk &&
                                        !SteppedWithin(drifted, DriftSeries::Of::kProbe, j));
      }
      if (!steady_again) return true;
    }
    if (s.of == DriftSeries::Of::kSqlite) {
      const std::string label = sqlite_bench::Label(target.sqlite[s.index].result.config);
      bool steady_again = false;
      for (std::size_t j = 0; j < target.sqlite.size(); ++j) {
        steady_again =
            steady_again ||
            (j != s.index && sqlite_bench::Label(target.sqlite[j].result.config) == label &&
             !SteppedWithin(drifted, DriftSeries::Of::kSqlite, j));
      }
      if (!steady_again) return true;
    }
  }
  return false;
}

void AddDriftFindings(model::Target& target) {
  std::erase_if(target.findings,
                [](const model::Finding& f) { return f.code == model::codes::kLatencyDrift; });
  target.moved = MovedProbes(target);
  std::vector<DriftSeries> drifted = DriftedSeries(target);
  if (drifted.empty() && target.moved.empty()) return;
  std::size_t touched = FiguresTouched(target, drifted);
  std::string states;
  if (target.device_states) {
    states = fmt::format("; the device alternates between ~{} and ~{} (device_states)",
                         text::FormatNanos(target.device_states->fast_ns),
                         text::FormatNanos(target.device_states->slow_ns));
  } else if (std::optional<LevelRange> range = RunLevelRange(target)) {
    states = fmt::format("; the reference probe ranged from {} to {}",
                         text::FormatNanos(range->low_ns), text::FormatNanos(range->high_ns));
  }
  const DriftSeries* reference = drifted.empty() ? nullptr : &drifted.front();
  for (const DriftSeries& d : drifted) {
    if (d.of == DriftSeries::Of::kReference) reference = &d;
  }
  bool warn = DriftWarns(target, drifted);
  target.findings.push_back(
      {warn ? model::Severity::kWarn : model::Severity::kInfo, model::codes::kLatencyDrift,
       fmt::format("the latency changed during the run (largest step: {}); it touches {} "
                   "figure{}{}{} (details: JSON targets[].reference, probes[].device_moved).{} "
                   "Rerun at a quiet time or with a longer --budget to see which level holds, "
                   "and check the volume's burst credits or a neighbour's I/O",
                   LargestStep(target, drifted), touched, touched == 1 ? "" : "s",
                   warn ? ", at least one measured across a step and not measured again" : "",
                   states, reference != nullptr ? BurstCredits(*reference) : "")});
}

}  // namespace durprobe::analysis
