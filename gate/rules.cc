#include "gate/rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "analysis/device_states.h"
#include "analysis/probe_drift.h"
#include "gate/concurrency_rule.h"
#include "gate/drift_range.h"
#include "gate/facts.h"
#include "gate/latency_decision.h"
#include "gate/wal_sync_method.h"
#include "model/labels.h"
#include "probes/statistics.h"
#include "probes/timed_loop.h"
#include "text/units.h"

namespace durprobe::gate {
namespace {

const probes::ProbeResult* FindProbe(const model::Target& t, const probes::ProbeSpec& spec) {
  for (const probes::ProbeResult& r : t.probes) {
    if (r.spec == spec) return &r;
  }
  return nullptr;
}

model::CheckResult Start(const std::string& rule, const model::Target& t, double threshold,
                         model::CheckComparison comparison, model::CheckUnit unit) {
  model::CheckResult c;
  c.rule = rule;
  c.path = t.path;
  c.threshold = threshold;
  c.comparison = comparison;
  c.unit = unit;
  return c;
}

// The probe a rule reads, or the result already settled as error / skipped.
const probes::ProbeResult* UsableProbe(const model::Target& t, const probes::ProbeSpec& spec,
                                       model::CheckResult& c) {
  const probes::ProbeResult* r = FindProbe(t, spec);
  if (r == nullptr) {
    c.outcome = model::CheckOutcome::kError;
    c.message = fmt::format("{} was not measured on this path", model::ProbeLabel(spec));
    return nullptr;
  }
  if (r->outcome == probes::Outcome::kUnsupported) {
    c.outcome = model::CheckOutcome::kSkipped;
    c.message = fmt::format("{} is unsupported here: {}", model::ProbeLabel(spec), r->reason);
    return nullptr;
  }
  if (r->outcome != probes::Outcome::kOk || r->ops == 0) {
    c.outcome = model::CheckOutcome::kError;
    c.message =
        fmt::format("{} could not be measured: {}", model::ProbeLabel(spec),
                    r->reason.empty() ? std::string(probes::NameOf(r->outcome)) : r->reason);
    return nullptr;
  }
  return r;
}

// What a latency rule reads: the sync call alone where the probe timed it apart.
const probes::LatencySummary& SyncLatency(const probes::ProbeResult& r) {
  return r.has_sync_part ? r.sync_latency : r.latency;
}
const std::vector<probes::HistogramBucket>& SyncHistogram(const probes::ProbeResult& r) {
  return r.has_sync_part ? r.sync_histogram : r.histogram;
}

// A probe rule's pass or fail, judged again against the drift seen during the run.
model::CheckResult WithinDrift(model::CheckResult c, const model::Target& t,
                               const probes::ProbeResult& r, Scaling scaling) {
  if (std::optional<analysis::Window> w = analysis::WindowOf(r)) {
    JudgeWithinDrift(c, t, LevelDuring(t, w->from, w->to), scaling);
  }
  return c;
}

// A failure measured while the CPU quota throttled the probe is the quota's as much as the
// disk's: unstable, with the counts, never a fail on the disk's account. A pass stands, since
// being held off the CPU only adds to a latency and takes from a rate.
model::CheckResult WithinQuota(model::CheckResult c, const probes::ProbeResult& r) {
  if (c.outcome != model::CheckOutcome::kFail || !r.cpu.throttled()) return c;
  const platform::CpuThrottleCount& t = r.cpu.throttling;
  c.message = fmt::format(
      "unstable: the CPU quota{} throttled the process while this was measured ({} of {} "
      "periods ran out of quota, {} held off the CPU), so the figure is the CPU limit's as "
      "much as the disk's (cpu_throttled). Give the process more CPU or measure where no quota "
      "applies. Measured: {}",
      r.cpu.quota_cpus > 0 ? fmt::format(" ({:.2g} CPUs)", r.cpu.quota_cpus) : std::string(),
      t.throttled, t.periods, text::FormatNanos(static_cast<double>(t.throttled_ns)), c.message);
  c.outcome = model::CheckOutcome::kUnstable;
  return c;
}

model::CheckResult EvaluateLatency(const LatencyRule& rule, const model::Target& t) {
  model::CheckResult c = Start(rule.name, t, static_cast<double>(rule.max_ns) / 1e9,
                               model::CheckComparison::kBelow, model::CheckUnit::kSeconds);
  const probes::ProbeResult* r = UsableProbe(t, rule.spec, c);
  if (r == nullptr) return c;
  const probes::LatencySummary& s = SyncLatency(*r);
  bool p99 = rule.stat == LatencyStat::kP99;
  std::uint64_t value = p99 ? s.p99 : s.p50;
  c.measured = static_cast<double>(value) / 1e9;
  c.samples = s.count;
  c.ci_low = static_cast<double>(p99 ? s.p99_ci_low : s.p50_ci_low) / 1e9;
  c.ci_high = static_cast<double>(p99 ? s.p99_ci_high : s.p50_ci_high) / 1e9;
  // The probe table's percentiles are of the whole write + sync: a rule on the sync call alone
  // says so, with the whole operation's figure beside it.
  std::uint64_t whole = p99 ? r->latency.p99 : r->latency.p50;
  std::string part = r->has_sync_part ? fmt::format("sync call {}", p99 ? "p99" : "p50")
                                      : std::string(p99 ? "p99" : "p50");
  std::string beside = r->has_sync_part
                           ? fmt::format("; write + sync {}", text::FormatNanos(double(whole)))
                           : std::string();
  std::string what =
      fmt::format("{} {} {} (95% CI {} to {}, {} samples{})", model::ProbeLabel(rule.spec), part,
                  text::FormatNanos(double(value)), text::FormatNanos(*c.ci_low * 1e9),
                  text::FormatNanos(*c.ci_high * 1e9), s.count, beside);
  // A probe that saw both of the device's states is judged on the slow one, the state to plan
  // for, when it holds the operations the figure needs; the drift between the states is then
  // already accounted for.
  const model::StateFigures* slow = analysis::SawBothStates(t, std::size_t(r - t.probes.data()))
                                        ? analysis::SlowStateOf(t, std::size_t(r - t.probes.data()))
                                        : nullptr;
  std::uint64_t slow_value = slow == nullptr    ? 0
                             : r->has_sync_part ? (p99 ? slow->sync_p99_ns : slow->sync_p50_ns)
                                                : (p99 ? slow->p99_ns : slow->p50_ns);
  if (slow_value > 0) {
    value = slow_value;
    c.measured = static_cast<double>(value) / 1e9;
    c.samples = r->has_sync_part ? slow->sync_ops : slow->ops;
    const probes::Interval& ci = p99 ? slow->rule_p99_ci : slow->rule_p50_ci;
    c.ci_low = static_cast<double>(ci.low) / 1e9;
    c.ci_high = static_cast<double>(ci.high) / 1e9;
    what = fmt::format(
        "{} {} {} in the device's slow state (95% CI {} to {}, {} samples, {} of the probe's "
        "time; over both states {}{})",
        model::ProbeLabel(rule.spec), part, text::FormatNanos(double(value)),
        text::FormatNanos(double(ci.low)), text::FormatNanos(double(ci.high)), c.samples,
        fmt::format("{:.0f}%", slow->time_share * 100.0),
        text::FormatNanos(double(p99 ? s.p99 : s.p50)), beside);
  }
  // A p99 well over its limit is decided by how many of the probe's samples exceed it, from
  // fewer samples than its interval needs (DecidedOverByCount).
  const TailCount over =
      p99 && slow_value == 0 ? CountAbove(SyncHistogram(*r), rule.max_ns) : TailCount{};
  const bool counted_over = DecidedOverByCount(over);
  analysis::Decision below =
      counted_over ? analysis::Decision::kNo
                   : DecideLatency(c, value, rule.max_ns, what,
                                   p99 ? probes::kTailMinOps : probes::kMinCiOperations,
                                   p99 ? probes::kTailBoundOps : 0);
  if (below == analysis::Decision::kCannotTell) return c;
  if (below == analysis::Decision::kYes) {
    c.outcome = model::CheckOutcome::kPass;
    c.message = what;
    if (slow_value > 0) return WithinQuota(std::move(c), *r);
    return WithinQuota(WithinDrift(std::move(c), t, *r, Scaling::kWithLatency), *r);
  }
  c.outcome = model::CheckOutcome::kFail;
  c.message =
      fmt::format("{} is not below {}", what, text::FormatNanos(static_cast<double>(rule.max_ns)));
  if (counted_over) {
    c.message += fmt::format(
        "; {} of its {} samples are over the limit, which a p99 below it would leave less than "
        "2.5% of the time",
        over.above, over.samples);
  }
  if (p99 && slow_value == 0 && s.p95 < rule.max_ns) {
    c.tail_failure = true;
    c.message += fmt::format("; tail failure: p95 {} is under the limit, {}",
                             text::FormatNanos(static_cast<double>(s.p95)), kTailCauses);
  }
  if (rule.severe_ns != 0 && value > rule.severe_ns) {
    c.severe = true;
    c.message +=
        fmt::format("; severe: over {} ({})",
                    text::FormatNanos(static_cast<double>(rule.severe_ns)), rule.severe_why);
  }
  if (slow_value > 0) return WithinQuota(std::move(c), *r);
  return WithinQuota(WithinDrift(std::move(c), t, *r, Scaling::kWithLatency), *r);
}

model::CheckResult EvaluateRate(const RateRule& rule, const model::Target& t) {
  model::CheckResult c = Start(rule.name, t, rule.min_ops_per_sec, model::CheckComparison::kAtLeast,
                               model::CheckUnit::kOpsPerSec);
  const probes::ProbeResult* r = UsableProbe(t, rule.spec, c);
  if (r == nullptr) return c;
  c.measured = r->ops_per_sec;
  c.samples = r->ops;
  c.outcome = r->ops_per_sec >= rule.min_ops_per_sec ? model::CheckOutcome::kPass
                                                     : model::CheckOutcome::kFail;
  // With work before each operation, an operation is one client's commit.
  c.message = fmt::format(
      "{}: {} {} over {} ops{}", model::ProbeLabel(rule.spec), text::FormatRate(r->ops_per_sec),
      rule.spec.work_us > 0 ? "commits/s of one client" : "synced writes/s", r->ops,
      c.outcome == model::CheckOutcome::kPass
          ? std::string()
          : fmt::format(", under the floor of {}/s", text::FormatRate(rule.min_ops_per_sec)));
  return WithinQuota(WithinDrift(std::move(c), t, *r, Scaling::kInverse), *r);
}

model::CheckResult EvaluateSlowSyncs(const SlowSyncRule& rule, const model::Target& t) {
  model::CheckResult c = Start(rule.name, t, static_cast<double>(rule.max_count),
                               model::CheckComparison::kAtMost, model::CheckUnit::kSyncs);
  const probes::ProbeResult* r = UsableProbe(t, rule.spec, c);
  if (r == nullptr) return c;
  const probes::LatencySummary& s = SyncLatency(*r);
  std::uint64_t slow = 0;
  if (s.max >= rule.over_ns) {
    const std::vector<probes::HistogramBucket>& buckets = SyncHistogram(*r);
    if (buckets.empty()) {
      c.outcome = model::CheckOutcome::kError;
      c.message = "the report has no latency histogram to count slow syncs in";
      return c;
    }
    for (const probes::HistogramBucket& b : buckets) {
      if (b.upper_bound_ns >= rule.over_ns) slow += b.count;
    }
  }
  c.measured = static_cast<double>(slow);
  c.samples = s.count;
  c.outcome = slow <= rule.max_count ? model::CheckOutcome::kPass : model::CheckOutcome::kFail;
  c.message =
      fmt::format("{}: {} of {} syncs took {} or longer (max {})", model::ProbeLabel(rule.spec),
                  slow, s.count, text::FormatNanos(static_cast<double>(rule.over_ns)),
                  text::FormatNanos(static_cast<double>(s.max)));
  return WithinQuota(std::move(c), *r);
}

model::CheckResult EvaluateCommits(const CommitRule& rule, const model::Target& t) {
  model::CheckResult c = Start(rule.name, t, rule.min_commits_per_sec,
                               model::CheckComparison::kAtLeast, model::CheckUnit::kCommitsPerSec);
  std::string label =
      fmt::format("{}/{}", sqlite_bench::NameOf(rule.journal), sqlite_bench::NameOf(rule.sync));
  const model::SqliteEntry* found = nullptr;
  for (const model::SqliteEntry& e : t.sqlite) {
    const sqlite_bench::CommitConfig& k = e.result.config;
    if (k.journal == rule.journal && k.sync == rule.sync && k.rows_per_commit == 1) found = &e;
  }
  if (found == nullptr) {
    c.message = fmt::format("{} single-row commits were not measured on this path", label);
    return c;
  }
  const sqlite_bench::CommitResult& r = found->result;
  if (r.outcome != probes::Outcome::kOk || r.commits == 0) {
    c.message = fmt::format("{} commits could not be measured: {}", label, r.reason);
    return c;
  }
  c.measured = r.commits_per_sec;
  c.samples = r.commits;
  c.outcome = r.commits_per_sec >= rule.min_commits_per_sec ? model::CheckOutcome::kPass
                                                            : model::CheckOutcome::kFail;
  c.message = fmt::format(
      "{}: {} commits/s (median of {} repetitions, {} commits){}", label,
      text::FormatRate(r.commits_per_sec), r.repetitions, r.commits,
      c.outcome == model::CheckOutcome::kPass
          ? std::string()
          : fmt::format(", under the floor of {}/s", text::FormatRate(rule.min_commits_per_sec)));
  if (!r.repetition_windows.empty()) {
    JudgeWithinDrift(
        c, t,
        LevelDuring(t, r.repetition_windows.front().start_ns, r.repetition_windows.back().end_ns),
        Scaling::kInverse);
  }
  return c;
}

}  // namespace

void Merge(Policy& policy, const Policy& other) {
  auto append = [](auto& into, const auto& from) {
    std::unordered_multimap<std::string, std::size_t> by_name;
    for (std::size_t i = 0; i < into.size(); ++i) by_name.emplace(into[i].name, i);
    for (const auto& rule : from) {
      auto [begin, end] = by_name.equal_range(rule.name);
      if (std::any_of(begin, end, [&](const auto& e) { return into[e.second] == rule; })) continue;
      by_name.emplace(rule.name, into.size());
      into.push_back(rule);
    }
  };
  append(policy.latency, other.latency);
  append(policy.rates, other.rates);
  append(policy.slow_syncs, other.slow_syncs);
  append(policy.commits, other.commits);
  append(policy.concurrency, other.concurrency);
  for (const std::string& code : other.fail_on_codes) {
    if (std::find(policy.fail_on_codes.begin(), policy.fail_on_codes.end(), code) ==
        policy.fail_on_codes.end()) {
      policy.fail_on_codes.push_back(code);
    }
  }
  for (Fact f : other.facts) {
    if (std::find(policy.facts.begin(), policy.facts.end(), f) == policy.facts.end()) {
      policy.facts.push_back(f);
    }
  }
  if (other.fail_on_severity &&
      (!policy.fail_on_severity || *other.fail_on_severity < *policy.fail_on_severity)) {
    policy.fail_on_severity = other.fail_on_severity;
  }
  policy.recommend_wal_sync_method |= other.recommend_wal_sync_method;
  policy.durable_rule |= other.durable_rule;
  policy.probe_file_size = std::max(policy.probe_file_size, other.probe_file_size);
  // One companion runs: the larger of two (a preset named twice keeps its own).
  if (other.companion_syncs_per_sec * static_cast<double>(other.companion_sync_bytes) >
      policy.companion_syncs_per_sec * static_cast<double>(policy.companion_sync_bytes)) {
    policy.companion_syncs_per_sec = other.companion_syncs_per_sec;
    policy.companion_sync_bytes = other.companion_sync_bytes;
  }
  if (!other.source.empty()) {
    policy.source += (policy.source.empty() ? "" : " + ") + other.source;
  }
}

std::vector<model::CheckResult> EvaluatePolicy(const Policy& policy, const model::Report& report) {
  std::vector<model::CheckResult> out;
  for (const model::Target& t : report.targets) {
    for (const LatencyRule& r : policy.latency) out.push_back(EvaluateLatency(r, t));
    for (const SlowSyncRule& r : policy.slow_syncs) out.push_back(EvaluateSlowSyncs(r, t));
    for (const RateRule& r : policy.rates) out.push_back(EvaluateRate(r, t));
    for (const CommitRule& r : policy.commits) out.push_back(EvaluateCommits(r, t));
    for (const ConcurrencyRule& r : policy.concurrency) out.push_back(EvaluateConcurrency(r, t));
    if (policy.HasDurableRule()) out.push_back(EvaluateDurable(t, policy.facts));
    for (Fact f : policy.facts) {
      if (f != Fact::kDurable) out.push_back(EvaluateFact(f, t));
    }
    for (model::CheckResult& c : EvaluateFindings(policy, t)) out.push_back(std::move(c));
    if (policy.recommend_wal_sync_method) out.push_back(RecommendWalSyncMethod(t));
  }
  return out;
}

void MarkInterrupted(std::vector<model::CheckResult>& checks, const std::vector<std::string>& paths,
                     int signal) {
  std::string name = signal == 15  ? "SIGTERM"
                     : signal == 2 ? "SIGINT"
                                   : fmt::format("signal {}", signal);
  std::string why = fmt::format("interrupted by {} before the check finished", name);
  for (model::CheckResult& c : checks) {
    if (c.outcome == model::CheckOutcome::kFail) continue;
    c.message = c.outcome == model::CheckOutcome::kError && !c.message.empty()
                    ? why + "; " + c.message
                    : why;
    c.outcome = model::CheckOutcome::kError;
  }
  for (const std::string& path : paths) {
    bool has = std::any_of(checks.begin(), checks.end(),
                           [&](const model::CheckResult& c) { return c.path == path; });
    if (has) continue;
    model::CheckResult c;
    c.rule = "check_finished";
    c.path = path;
    c.outcome = model::CheckOutcome::kError;
    c.message = why;
    checks.push_back(std::move(c));
  }
}

}  // namespace durprobe::gate
