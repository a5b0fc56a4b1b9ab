#include "explain/compare_analysis.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analysis/decision.h"
#include "analysis/durability_risk.h"
#include "explain/compare_advice.h"
#include "explain/compare_loss.h"
#include "explain/diff_differences.h"
#include "platform/enum_table.h"
#include "text/units.h"

namespace durprobe::explain {
namespace {

using probes::FileOp;
using probes::Outcome;
using probes::Pattern;
using probes::Primitive;

// A median with its 95% confidence interval; unbounded (low and high the median) from fewer than
// probes::kMinCiOperations operations, where the order statistics' interval is the spread of a
// handful of samples (of one, none at all), not the median's uncertainty.
struct Estimate {
  double ns = 0, low = 0, high = 0;
  bool bounded = true;
};

Estimate Of(const probes::LatencySummary& l) {
  double p50 = static_cast<double>(l.p50);
  if (l.p50_ci_high == 0 || l.count < probes::kMinCiOperations) return {p50, p50, p50, false};
  return {p50, static_cast<double>(l.p50_ci_low), static_cast<double>(l.p50_ci_high)};
}

std::optional<Estimate> ProbeMedian(const model::Target& t, Primitive prim, Pattern pat,
                                    bool sync_only) {
  for (const probes::ProbeResult& r : t.probes) {
    if (r.spec.primitive != prim || r.spec.pattern != pat || r.outcome != Outcome::kOk) continue;
    if (r.ops == 0) continue;
    if (sync_only && !r.has_sync_part) continue;
    return Of(sync_only ? r.sync_latency : r.latency);
  }
  return std::nullopt;
}

std::optional<Estimate> OpMedian(const model::Target& t, FileOp op) {
  for (const probes::OpCostResult& r : t.op_costs) {
    if (r.op == op && r.outcome == Outcome::kOk && r.ops > 0) return Of(r.latency);
  }
  return std::nullopt;
}

std::optional<Estimate> Sum(std::initializer_list<std::optional<Estimate>> parts) {
  Estimate total;
  for (const auto& p : parts) {
    if (!p) return std::nullopt;
    total.ns += p->ns;
    total.low += p->low;
    total.high += p->high;
    total.bounded = total.bounded && p->bounded;
  }
  return total;
}

void Set(const std::optional<Estimate>& e, std::optional<double>& ns,
         std::optional<Bounds>& bounds) {
  if (!e) return;
  ns = e->ns;
  if (e->bounded) bounds = Bounds{e->low, e->high};
}

double Ratio(const std::optional<double>& a, const std::optional<double>& base) {
  if (!a || !base || *base <= 0) return 0.0;
  return *a / *base;
}

std::optional<Bounds> RatioBounds(const std::optional<Bounds>& a, const std::optional<Bounds>& base,
                                  double ratio) {
  if (!a || !base || ratio <= 0) return std::nullopt;
  double low = base->high > 0 ? a->low / base->high : ratio;
  double high = base->low > 0 ? a->high / base->low : ratio;
  return Bounds{std::min(low, ratio), std::max(high, ratio)};
}

std::string Range(const Bounds& b) {
  return fmt::format("{} to {}", text::FormatRatio(b.low), text::FormatRatio(b.high));
}

// One SQLite configuration both paths committed: its median commit here against the first's.
struct CommitRatio {
  std::string label;  // "WAL/FULL x1"
  double ratio = 0, here = 0, there = 0;
};

bool SameShape(const sqlite_bench::CommitConfig& a, const sqlite_bench::CommitConfig& b) {
  return a.journal == b.journal && a.sync == b.sync && a.rows_per_commit == b.rows_per_commit &&
         a.statement == b.statement && a.payload_bytes == b.payload_bytes &&
         a.fullfsync == b.fullfsync;
}

std::optional<double> CommitMedian(const model::Target& t,
                                   const sqlite_bench::CommitConfig& config) {
  for (const model::SqliteEntry& e : t.sqlite) {
    if (SameShape(e.result.config, config) && e.result.outcome == Outcome::kOk &&
        e.result.commits > 0 && e.result.latency.p50 > 0) {
      return static_cast<double>(e.result.latency.p50);
    }
  }
  return std::nullopt;
}

// Lowest ratio first.
std::vector<CommitRatio> CommitRatios(const model::Target& t, const model::Target& base) {
  std::vector<CommitRatio> out;
  for (const model::SqliteEntry& e : t.sqlite) {
    std::optional<double> here = CommitMedian(t, e.result.config);
    std::optional<double> there = CommitMedian(base, e.result.config);
    if (!here || !there) continue;
    const sqlite_bench::CommitConfig& c = e.result.config;
    out.push_back({fmt::format("{}/{} x{}", sqlite_bench::NameOf(c.journal),
                               sqlite_bench::NameOf(c.sync), c.rows_per_commit),
                   *here / *there, *here, *there});
  }
  std::sort(out.begin(), out.end(),
            [](const CommitRatio& a, const CommitRatio& b) { return a.ratio < b.ratio; });
  return out;
}

std::string CommitRange(const std::vector<CommitRatio>& c) {
  std::string range =
      c.front().ratio == c.back().ratio
          ? text::FormatRatio(c.back().ratio)
          : text::FormatRatio(c.front().ratio) + " to " + text::FormatRatio(c.back().ratio);
  return fmt::format("{} the first path's over {} configuration{} ({} {} vs {})", range, c.size(),
                     c.size() == 1 ? "" : "s", c.back().label, text::FormatNanos(c.back().here),
                     text::FormatNanos(c.back().there));
}

}  // namespace

constexpr platform::TextRow<Dominant> kDominantNames[] = {
    {Dominant::kPerSync, "per_sync"},       {Dominant::kPerOp, "per_op"},
    {Dominant::kMetadata, "metadata"},      {Dominant::kNone, "none"},
    {Dominant::kNotDurable, "not_durable"}, {Dominant::kCommit, "commit"},
    {Dominant::kUnmeasured, "unmeasured"},  {Dominant::kUndecided, "undecided"},
};
static_assert(platform::OneRowPerValue(kDominantNames, kLastDominant), "one name per Dominant");

std::string_view NameOf(Dominant d) { return platform::TextIn(kDominantNames, d); }

std::string VerdictHeadline(const Verdict& v) {
  switch (v.dominant) {
    case Dominant::kNone:
      return "no significant penalty";
    case Dominant::kNotDurable:
      // "faster" only when it is: a path that loses syncs and still costs more says so, one
      // without a ratio says nothing of speed, and a partial loss is named for what it loses.
      if (v.loses_directory_syncs_only) {
        return v.ratio >= 1.0 ? "loses directory syncs, and no faster" : "loses directory syncs";
      }
      if (v.ratio <= 0.0) return "keeps nothing";
      return v.ratio >= 1.0 ? "not durable, and no faster" : "faster because it keeps nothing";
    case Dominant::kUnmeasured:
      return "could not be measured";
    case Dominant::kUndecided:
      return "cannot tell yet";
    case Dominant::kCommit:
      return "commit penalty (its component not measured)";
    case Dominant::kPerSync:
    case Dominant::kPerOp:
    case Dominant::kMetadata:
      return fmt::format("{} penalty", NameOf(v.dominant));
  }
  return "";
}

Components ComponentsOf(const model::Target& t) {
  Components c;
  std::optional<Estimate> write = OpMedian(t, FileOp::kWrite);
  std::optional<Estimate> synced =
      ProbeMedian(t, Primitive::kFdatasync, Pattern::kOverwrite, false);
  if (write && synced) {
    Estimate sync{std::max(0.0, synced->ns - write->ns), std::max(0.0, synced->low - write->high),
                  std::max(0.0, synced->high - write->low), synced->bounded && write->bounded};
    Set(sync, c.per_sync_ns, c.per_sync_bounds);
  }
  Set(Sum({write, OpMedian(t, FileOp::kRead), OpMedian(t, FileOp::kOpenClose),
           OpMedian(t, FileOp::kStat)}),
      c.per_op_ns, c.per_op_bounds);
  Set(Sum({OpMedian(t, FileOp::kCreate), OpMedian(t, FileOp::kRename),
           ProbeMedian(t, Primitive::kDirFsync, Pattern::kCreate, true)}),
      c.metadata_ns, c.metadata_bounds);
  return c;
}

std::vector<Verdict> CompareVerdicts(const std::vector<model::Target>& targets) {
  std::vector<Verdict> verdicts;
  if (targets.size() < 2) return verdicts;
  const model::Target& first = targets.front();
  Components base = ComponentsOf(first);
  std::vector<std::string> base_not_durable = analysis::NotDurableCodes(first);
  for (std::size_t i = 1; i < targets.size(); ++i) {
    Components c = ComponentsOf(targets[i]);
    Verdict v;
    v.path = targets[i].path;
    v.per_sync_ratio = Ratio(c.per_sync_ns, base.per_sync_ns);
    v.per_op_ratio = Ratio(c.per_op_ns, base.per_op_ns);
    v.metadata_ratio = Ratio(c.metadata_ns, base.metadata_ns);
    v.per_sync_bounds = RatioBounds(c.per_sync_bounds, base.per_sync_bounds, v.per_sync_ratio);
    v.per_op_bounds = RatioBounds(c.per_op_bounds, base.per_op_bounds, v.per_op_ratio);
    v.metadata_bounds = RatioBounds(c.metadata_bounds, base.metadata_bounds, v.metadata_ratio);
    v.not_durable = analysis::NotDurableCodes(targets[i]);
    struct Part {
      Dominant name;
      double ratio;
      std::optional<Bounds> bounds;
      std::optional<double> here, there;
      const char* what;
    };
    Part parts[] = {{Dominant::kPerSync, v.per_sync_ratio, v.per_sync_bounds, c.per_sync_ns,
                     base.per_sync_ns, "a sync (fdatasync minus the write)"},
                    {Dominant::kPerOp, v.per_op_ratio, v.per_op_bounds, c.per_op_ns, base.per_op_ns,
                     "plain file operations (write + read + open/close + stat)"},
                    {Dominant::kMetadata, v.metadata_ratio, v.metadata_bounds, c.metadata_ns,
                     base.metadata_ns, "metadata (create + rename + directory fsync)"}};
    auto bounds = [](const Part& p) { return p.bounds.value_or(Bounds{p.ratio, p.ratio}); };
    auto decide = [](const Part& p) {
      analysis::RatioEvidence e{p.ratio, std::nullopt, std::nullopt};
      if (p.bounds) e.low = p.bounds->low, e.high = p.bounds->high;
      return DecidePenalty(e, kPenaltyRatio);
    };
    // A component without both paths' measurements (a budget that cut the op costs, a probe
    // that failed) has ratio 0: it is no evidence of "no penalty", and is said to be missing.
    std::vector<std::string> missing;
    for (const Part& p : parts) {
      if (p.ratio <= 0) missing.push_back(p.what);
    }
    std::string split_note;
    if (!missing.empty()) {
      split_note = fmt::format(
          "{} could not be measured on both paths (an op cost or probe it needs did not run or "
          "failed: see unfinished; a longer --budget, not --quick, measures it)",
          fmt::join(missing, ", "));
    }
    std::vector<CommitRatio> commits = CommitRatios(targets[i], first);
    const bool commit_penalty = !commits.empty() && commits.front().ratio >= kPenaltyRatio;
    v.states = StateRatios(targets[i], first);
    const bool state_mix =
        v.per_sync_ratio >= kPenaltyRatio && NoPenaltyInAnyState(v.states, kPenaltyRatio);
    const Part* worst = nullptr;  // the largest penalty decided beyond the noise
    const Part* open = nullptr;   // the largest ratio whose penalty cannot be told yet
    for (const Part& p : parts) {
      if (p.ratio <= 0 || (state_mix && p.name == Dominant::kPerSync)) continue;
      analysis::Decision d = decide(p);
      if (d == analysis::Decision::kNo) continue;
      const Part*& slot = d == analysis::Decision::kYes ? worst : open;
      if (slot == nullptr || p.ratio > slot->ratio) slot = &p;
    }
    // A penalty decided beyond the noise, or slower commits: the path is not faster.
    const bool dirs_only = LosesOnlyDirectorySyncs(targets[i]);
    if (!v.not_durable.empty() && (worst != nullptr || commit_penalty || dirs_only)) {
      v.dominant = Dominant::kNotDurable;
      v.loses_directory_syncs_only = dirs_only;
      v.ratio = worst ? worst->ratio : commit_penalty ? commits.back().ratio : v.per_sync_ratio;
      v.message = LossMessage(
          dirs_only, v.not_durable,
          worst ? fmt::format("{}: {} the first path's ({} vs {})", worst->what,
                              text::FormatRatio(worst->ratio), text::FormatNanos(*worst->here),
                              text::FormatNanos(*worst->there))
                : (commit_penalty ? "its commits: " + CommitRange(commits) : std::string()));
    } else if (!v.not_durable.empty()) {
      v.dominant = Dominant::kNotDurable;
      v.ratio = v.per_sync_ratio;
      v.message = fmt::format(
          "syncs here do not reach stable storage ({}): this path is faster because it keeps "
          "nothing across a power loss or crash, not a cheaper place for a database{}",
          fmt::join(v.not_durable, ", "),
          c.per_sync_ns && base.per_sync_ns
              ? fmt::format(" (a sync: {} vs {})", text::FormatNanos(*c.per_sync_ns),
                            text::FormatNanos(*base.per_sync_ns))
              : std::string());
    } else if (worst != nullptr) {
      v.dominant = worst->name;
      v.ratio = worst->ratio;
      Bounds b = bounds(*worst);
      v.message = fmt::format("{}: {} the first path's ({} vs {}{}); {}", worst->what,
                              text::FormatRatio(worst->ratio), text::FormatNanos(*worst->here),
                              text::FormatNanos(*worst->there),
                              b.low < b.high ? "; noise bounds " + Range(b) : std::string(),
                              CompareAdvice(v.dominant, targets[i]));
    } else if (!missing.empty() && commit_penalty) {
      // What was measured says nothing against a penalty, and every commit both paths ran is
      // slower: the commits are the verdict, their component unknown.
      v.dominant = Dominant::kCommit;
      v.ratio = commits.back().ratio;
      v.message = fmt::format("SQLite commits are {}; where that comes from is not known: {}",
                              CommitRange(commits), split_note);
    } else if (open != nullptr) {
      v.dominant = Dominant::kUndecided;
      v.ratio = open->ratio;
      v.message = fmt::format(
          "cannot tell yet against {}: {} is {} the first path's, but {}; rerun with a longer "
          "--budget (not --quick) to decide{}",
          first.path, open->what, text::FormatRatio(open->ratio),
          open->bounds ? fmt::format("its noise bounds ({}) reach 1x", Range(*open->bounds))
                       : fmt::format("a path timed it on fewer than {} operations, too few for "
                                     "a noise bound",
                                     probes::kMinCiOperations),
          split_note.empty() ? std::string() : "; " + split_note);
    } else if (missing.size() == std::size(parts) && !commits.empty() &&
               commits.back().ratio >= kPenaltyRatio) {
      // No component to split the time by, and the commits disagree: some 1.25x or more slower,
      // some not (bindfs under --quick: WAL/FULL 1.12x, WAL/OFF 11.2x). Neither a penalty nor
      // its absence is decided.
      v.dominant = Dominant::kUndecided;
      v.ratio = commits.back().ratio;
      v.message = fmt::format(
          "cannot tell yet against {}: SQLite commits are {}, some {} or more and some not, and "
          "{}",
          first.path, CommitRange(commits), text::FormatRatio(kPenaltyRatio), split_note);
    } else if (missing.size() == std::size(parts) && commits.empty()) {
      v.dominant = Dominant::kUnmeasured;
      v.ratio = 0;
      v.message = fmt::format(
          "nothing both paths measured can be set side by side: {}, and no "
          "SQLite configuration committed on both",
          split_note);
    } else {
      v.dominant = Dominant::kNone;
      if (missing.size() == std::size(parts)) {
        v.message = fmt::format("no penalty of {} or more against {} in SQLite commits ({}); {}",
                                text::FormatRatio(kPenaltyRatio), first.path, CommitRange(commits),
                                split_note);
      } else {
        v.message = fmt::format("no penalty of {} or more against {} in any {}component{}",
                                text::FormatRatio(kPenaltyRatio), first.path,
                                split_note.empty() ? "" : "measured ",
                                split_note.empty() ? std::string() : "; " + split_note);
      }
    }
    v.message += StatesNote(v.states, state_mix);
    v.differences = MountDifferences(first, targets[i], "mount");
    DropIdentityKeys(v.differences);
    v.causes = RankCauses({&first, &targets[i], nullptr, nullptr, "[1]", fmt::format("[{}]", i + 1),
                           nullptr, v.differences});
    if (!base_not_durable.empty() && v.not_durable.empty()) {
      v.message += fmt::format(
          "; note: the first path does not keep data ({}), so its syncs cost nothing and a "
          "per-sync difference against it is the price of durability",
          fmt::join(base_not_durable, ", "));
    }
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

const Verdict* LeadingVerdict(const std::vector<Verdict>& verdicts) {
  const Verdict* best = nullptr;
  for (const Verdict& v : verdicts) {
    if (v.causes.empty()) continue;
    if (best == nullptr || v.causes.front().score > best->causes.front().score) best = &v;
  }
  return best;
}

}  // namespace durprobe::explain
