#include "explain/diff_analysis.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/durability_risk.h"
#include "analysis/sqlite_correlation.h"
#include "platform/enum_table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::explain {
namespace {

std::string ConfigKey(const model::SqliteEntry& e) {
  const sqlite_bench::CommitConfig& c = e.result.config;
  std::string key = sqlite_bench::Label(c);
  if (c.fullfsync) key += *c.fullfsync ? " fullfsync" : " no-fullfsync";
  return key;
}

const DiffFactor kFactors[3] = {DiffFactor::kSyncLatency, DiffFactor::kSyncCount,
                                DiffFactor::kNonSync};

// Each configuration's shares weigh by how far apart its commit times are (log of the ratio),
// so a 300x gap in DELETE/FULL outweighs a 1.4x gap in WAL/OFF.
DiffVerdict ConfigVerdict(const std::vector<ConfigDiff>& configs, double* weight) {
  double shares[3] = {0, 0, 0};
  const ConfigDiff* headline = nullptr;
  for (const ConfigDiff& c : configs) {
    double rel = std::fabs(c.commit_ns_b - c.commit_ns_a) / c.commit_ns_a;
    if (rel < kMeaningfulGap) continue;
    double w = std::fabs(std::log(c.commit_ns_b / c.commit_ns_a));
    shares[0] += w * std::fabs(c.share_sync_latency);
    shares[1] += w * std::fabs(c.share_sync_count);
    shares[2] += w * std::fabs(c.share_non_sync);
    if (w > *weight) {
      *weight = w;
      headline = &c;
    }
  }
  if (headline == nullptr) {
    return {DiffFactor::kConfiguration,
            fmt::format("commit times agree within {:.0f}% in every "
                        "configuration both reports measured; nothing to "
                        "attribute",
                        kMeaningfulGap * 100)};
  }
  int best = 0;
  for (int i = 1; i < 3; ++i) {
    if (shares[i] > shares[best]) best = i;
  }
  const ConfigDiff& h = *headline;
  double share = best == 0   ? h.share_sync_latency
                 : best == 1 ? h.share_sync_count
                             : h.share_non_sync;
  std::string detail;
  if (best == 0) {
    detail = fmt::format("a sync takes {} in a and {} in b", text::FormatNanos(h.sync_ns_a),
                         text::FormatNanos(h.sync_ns_b));
  } else if (best == 1) {
    detail = fmt::format("{:.2f} syncs per commit in a against {:.2f} in b", h.syncs_a, h.syncs_b);
  } else {
    detail = fmt::format("{} outside syncs per commit in a against {} in b",
                         text::FormatNanos(h.non_sync_ns_a), text::FormatNanos(h.non_sync_ns_b));
  }
  return {
      kFactors[best],
      fmt::format("{}: {} commits/s in a vs {} in b; {:.0f}% of the gap is {} ({}); {}", h.label,
                  text::FormatRate(h.commits_per_sec_a), text::FormatRate(h.commits_per_sec_b),
                  share * 100, NameOf(kFactors[best]), detail, DiffAdvice(kFactors[best]))};
}

// A side whose syncs do no durable work (memory filesystem, no-op syncs, barriers off): its speed
// is not a faster device, so that heads the verdict and the measured attribution follows it.
void DiffVerdicts(const model::Target& a, const model::Target& b, PairDiff& pair) {
  std::vector<std::string> na = analysis::NotDurableCodes(a), nb = analysis::NotDurableCodes(b);
  if (na.empty() && nb.empty()) return;
  std::string measured = fmt::format("{}: {}", NameOf(pair.verdict.factor), pair.verdict.message);
  std::string what;
  if (!na.empty() && !nb.empty()) {
    what = fmt::format(
        "neither side's syncs do durable work (a: {}; b: {}), so neither figure is the cost of "
        "durability on storage",
        fmt::join(na, ", "), fmt::join(nb, ", "));
  } else {
    bool in_a = !na.empty();
    what = fmt::format(
        "{}'s syncs do no durable work ({}): it is faster because it keeps nothing on power "
        "loss, not because its storage is faster, and {}'s figures are the real cost of a "
        "durable commit",
        in_a ? "a" : "b", fmt::join(in_a ? na : nb, ", "), in_a ? "b" : "a");
  }
  pair.verdict = {DiffFactor::kDurability,
                  fmt::format("{}; {}. The measured gap: {}", what,
                              DiffAdvice(DiffFactor::kDurability), measured)};
  pair.weight += kDurabilityWeight;
}

PairDiff DiffPair(const model::Report& ra, const model::Report& rb, const model::Target& a,
                  const model::Target& b, const std::string& mount_prefix,
                  const std::vector<Difference>& context) {
  PairDiff pair;
  pair.a_path = a.path;
  pair.b_path = b.path;
  std::map<std::string, const model::SqliteEntry*> in_b;
  for (const model::SqliteEntry& e : b.sqlite) in_b[ConfigKey(e)] = &e;
  for (const model::SqliteEntry& e : a.sqlite) {
    auto it = in_b.find(ConfigKey(e));
    if (it != in_b.end() && e.result.commits_per_sec > 0 &&
        it->second->result.commits_per_sec > 0) {
      pair.configs.push_back(DiffConfig(e, *it->second));
    }
  }
  pair.probes = DiffProbes(a, b);
  pair.concurrency = DiffConcurrency(a, b);
  pair.differences = MountDifferences(a, b, mount_prefix);
  std::vector<Difference> all = context;
  all.insert(all.end(), pair.differences.begin(), pair.differences.end());
  DropIdentityKeys(all);
  std::erase_if(pair.differences, [&all](const Difference& d) {
    return std::none_of(all.begin(), all.end(),
                        [&d](const Difference& x) { return x.key == d.key; });
  });
  if (!pair.configs.empty()) {
    pair.verdict = ConfigVerdict(pair.configs, &pair.weight);
  } else if (!pair.probes.empty()) {
    pair.verdict = ProbeVerdict(pair.probes, &pair.weight);
  } else {
    pair.verdict = {DiffFactor::kConfiguration,
                    fmt::format("no SQLite configuration and no probe in common; {}",
                                DiffAdvice(DiffFactor::kConfiguration))};
  }
  DiffVerdicts(a, b, pair);
  pair.causes = RankCauses({&a, &b, &ra.context, &rb.context, "a", "b", &pair.configs, all, true});
  return pair;
}

// The first few paths, then how many more: an error naming a report's 10,000 paths one by one
// was an 89 KB line.
std::string PathList(const model::Report& r) {
  constexpr std::size_t kNamed = 5;
  std::string out;
  for (std::size_t i = 0; i < r.targets.size() && i < kNamed; ++i) {
    out += (out.empty() ? "" : ", ") + r.targets[i].path;
  }
  if (r.targets.size() > kNamed) out += fmt::format(" and {} more", r.targets.size() - kNamed);
  return out;
}

const model::Target* FindPath(const model::Report& r, const std::string& path) {
  for (const model::Target& t : r.targets) {
    if (t.path == path) return &t;
  }
  return nullptr;
}

}  // namespace

constexpr platform::TextRow<DiffFactor> kDiffFactorNames[] = {
    {DiffFactor::kSyncLatency, "sync_latency"}, {DiffFactor::kSyncCount, "sync_count"},
    {DiffFactor::kNonSync, "non_sync"},         {DiffFactor::kConfiguration, "configuration"},
    {DiffFactor::kDurability, "durability"},
};
static_assert(platform::OneRowPerValue(kDiffFactorNames, kLastDiffFactor),
              "one name per DiffFactor");

std::string_view NameOf(DiffFactor f) { return platform::TextIn(kDiffFactorNames, f); }

std::string DiffAdvice(DiffFactor factor) {
  switch (factor) {
    case DiffFactor::kSyncLatency:
      return "each sync takes longer on one host: look at the device, its write cache and FUA, "
             "the filesystem and mount options, or a throttled virtual disk (durprobe probe "
             "shows the raw fdatasync latency on both)";
    case DiffFactor::kSyncCount:
      return "SQLite issues a different number of syncs per commit: compare the SQLite "
             "versions, compile options (SQLITE_DEFAULT_SYNCHRONOUS, "
             "SQLITE_DEFAULT_WAL_SYNCHRONOUS) and the journal_mode / synchronous actually in "
             "effect";
    case DiffFactor::kDurability:
      return "compare paths whose syncs reach stable storage (the findings named say why these "
             "do not), or read the faster side as what the application would risk there";
    case DiffFactor::kNonSync:
      return "the time outside syncs differs: CPU speed, per-operation overhead of the "
             "filesystem layer (FUSE, virtiofs, 9p, overlay), or locking; `durprobe compare` on "
             "both paths shows the per-operation costs";
    case DiffFactor::kConfiguration:
      return "rerun both with the same subcommand and the same --journal-modes, --synchronous "
             "and probe selection, and read the differences listed";
  }
  return "";
}

ConfigDiff DiffConfig(const model::SqliteEntry& a, const model::SqliteEntry& b) {
  ConfigDiff d;
  const sqlite_bench::CommitConfig& config = a.result.config;
  d.journal_mode = sqlite_bench::NameOf(config.journal);
  d.synchronous = sqlite_bench::NameOf(config.sync);
  d.rows_per_commit = config.rows_per_commit;
  d.statement = sqlite_bench::NameOf(config.statement);
  d.payload_bytes = config.payload_bytes;
  d.label = sqlite_bench::Label(config);
  d.commits_per_sec_a = a.result.commits_per_sec;
  d.commits_per_sec_b = b.result.commits_per_sec;
  auto side = [](const model::SqliteEntry& e, double* commit, double* syncs, double* per_sync,
                 double* rest) {
    double cps = e.result.commits_per_sec;
    *commit = cps > 0 ? 1e9 / cps : 0.0;
    *syncs = analysis::SyncsOf(e).total;
    double sync_time = *commit * analysis::SyncTimeShareOf(e);
    *per_sync = *syncs > 0 ? sync_time / *syncs : 0.0;
    *rest = *commit - sync_time;
  };
  side(a, &d.commit_ns_a, &d.syncs_a, &d.sync_ns_a, &d.non_sync_ns_a);
  side(b, &d.commit_ns_b, &d.syncs_b, &d.sync_ns_b, &d.non_sync_ns_b);
  double gap = d.commit_ns_b - d.commit_ns_a;
  if (gap == 0.0) return d;
  double latency_effect = (d.sync_ns_b - d.sync_ns_a) * (d.syncs_a + d.syncs_b) / 2.0;
  double count_effect = (d.syncs_b - d.syncs_a) * (d.sync_ns_a + d.sync_ns_b) / 2.0;
  double rest_effect = d.non_sync_ns_b - d.non_sync_ns_a;
  d.share_sync_latency = latency_effect / gap;
  d.share_sync_count = count_effect / gap;
  d.share_non_sync = rest_effect / gap;
  return d;
}

Result<Diff> DiffReports(const model::Report& a, const model::Report& b, const std::string& a_name,
                         const std::string& b_name, const PathChoice& choice) {
  Diff diff;
  diff.a_name = a_name;
  diff.b_name = b_name;
  std::vector<std::pair<const model::Target*, const model::Target*>> pairs;
  if (!choice.a_path.empty() || !choice.b_path.empty()) {
    const model::Target* ta = FindPath(a, choice.a_path);
    const model::Target* tb = FindPath(b, choice.b_path);
    if (ta == nullptr) {
      return Status::InvalidArgument(fmt::format("--path '{}' is not in {} (its paths: {})",
                                                 choice.a_path, a_name, PathList(a)));
    }
    if (tb == nullptr) {
      return Status::InvalidArgument(fmt::format("--path '{}' is not in {} (its paths: {})",
                                                 choice.b_path, b_name, PathList(b)));
    }
    pairs.push_back({ta, tb});
  } else if (a.targets.size() != b.targets.size()) {
    return Status::InvalidArgument(fmt::format(
        "{} holds {} path(s) ({}) and {} holds {} ({}): choose the pair with --path A_PATH "
        "--path B_PATH",
        a_name, a.targets.size(), PathList(a), b_name, b.targets.size(), PathList(b)));
  } else {
    for (std::size_t i = 0; i < a.targets.size(); ++i)
      pairs.push_back({&a.targets[i], &b.targets[i]});
  }
  diff.differences = ContextDifferences(a.context, b.context);
  diff.warnings = DiffWarnings(a.context, b.context);
  const PairDiff* widest = nullptr;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    std::string prefix = pairs.size() == 1 ? "mount" : fmt::format("targets[{}].mount", i);
    diff.pairs.push_back(
        DiffPair(a, b, *pairs[i].first, *pairs[i].second, prefix, diff.differences));
    std::string states = StateWarning(*pairs[i].first, *pairs[i].second);
    if (!states.empty()) diff.warnings.push_back(std::move(states));
  }
  for (const PairDiff& p : diff.pairs) {
    for (const ConfigDiff& c : p.configs) diff.configs.push_back(c);
    for (const Difference& d : p.differences) diff.differences.push_back(d);
    if (widest == nullptr || p.weight > widest->weight) widest = &p;
  }
  DropIdentityKeys(diff.differences);
  diff.verdict = widest->verdict;
  diff.causes = widest->causes;
  if (diff.pairs.size() > 1) {
    diff.verdict.message = fmt::format("{} (a) vs {} (b), the pair furthest apart: {}",
                                       widest->a_path, widest->b_path, widest->verdict.message);
  }
  return diff;
}

}  // namespace durprobe::explain
