// diff's analysis: two saved reports (read by codec/json_reader.h), their paths paired, and
// for every SQLite configuration both measured, the commit-time gap split into sync latency, sync
// count and non-sync time; for reports without SQLite rows in common, the same from the raw
// probes (explain/diff_probes.h); plus the differences in how and where the reports were
// made that can explain it (explain/diff_differences.h). Pure: reads the model.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "explain/causes.h"
#include "explain/diff_differences.h"
#include "explain/diff_probes.h"
#include "model/report.h"
#include "platform/status.h"

namespace durprobe::explain {

inline constexpr const char* kDiffSchema = "durprobe.diff/1";
// A commit-time gap under this fraction is not attributed (its shares are noise).
inline constexpr double kMeaningfulGap = 0.05;

// Configurations are matched on everything that shapes them: journal mode, synchronous, rows per
// commit, statement handling, payload size and fullfsync.
struct ConfigDiff {
  std::string journal_mode, synchronous;
  std::int64_t rows_per_commit = 1;
  std::string statement;  // "reused", "per_row"
  std::uint32_t payload_bytes = 100;
  std::string label;  // "WAL/FULL x1 reused 100B"
  double commits_per_sec_a = 0, commits_per_sec_b = 0;
  double commit_ns_a = 0, commit_ns_b = 0;
  double syncs_a = 0, syncs_b = 0;              // syncs per commit
  double sync_ns_a = 0, sync_ns_b = 0;          // time per sync (0 when no syncs)
  double non_sync_ns_a = 0, non_sync_ns_b = 0;  // commit time outside syncs
  // Shares of the gap (commit_ns_b - commit_ns_a); they add up to 1 when the gap is not zero.
  double share_sync_latency = 0, share_sync_count = 0, share_non_sync = 0;
};

// Splits the gap of one configuration: the sync part n_b*L_b - n_a*L_a into a latency effect
// (L_b - L_a)(n_a + n_b)/2 and a count effect (n_b - n_a)(L_a + L_b)/2, which add up exactly;
// the rest is the change in non-sync time.
ConfigDiff DiffConfig(const model::SqliteEntry& a, const model::SqliteEntry& b);

// A pair where a side's syncs do no durable work (analysis/durability_risk.h) gets the
// durability verdict, and this much more weight, so it heads the verdict of several pairs.
inline constexpr double kDurabilityWeight = 100.0;

// What a diff's verdict puts the gap down to.
enum class DiffFactor {
  kSyncLatency,    // each sync takes longer
  kSyncCount,      // more syncs per commit
  kNonSync,        // the time outside syncs
  kConfiguration,  // nothing measured in common to attribute (or nothing to attribute)
  // A side's syncs do no durable work (its message then ends with the measured factor and its
  // message).
  kDurability,
};
// The last enumerator, up to which NameOf's table is counted: one added after it moves this.
inline constexpr DiffFactor kLastDiffFactor = DiffFactor::kDurability;
// "sync_latency", "sync_count", "non_sync", "configuration", "durability"
std::string_view NameOf(DiffFactor f);

struct DiffVerdict {
  DiffFactor factor = DiffFactor::kConfiguration;
  std::string message;
};

// One path of a against one path of b.
struct PairDiff {
  std::string a_path, b_path;
  std::vector<ConfigDiff> configs;
  std::vector<ProbeDiff> probes;
  std::vector<ConcurrencyDiff> concurrency;  // --writers rows both measured
  std::vector<Difference> differences;       // mount fields ("mount.fstype")
  std::vector<Cause> causes;                 // why, best first (explain/causes.h)
  DiffVerdict verdict;
  double weight = 0;  // how far apart the pair is (|log| of its widest ratio): picks the headline
};

struct Diff {
  std::string a_name, b_name;
  std::vector<PairDiff> pairs;
  // Every pair's configurations, and the differences of the context (subcommand, options, SQLite,
  // kernel, ...) and of every pair's mount (named "targets[i].mount..." when there are several).
  std::vector<ConfigDiff> configs;
  std::vector<Difference> differences;
  std::vector<std::string> warnings;  // comparisons that mislead (a quick run against a full one)
  DiffVerdict verdict;                // the single pair's, or the widest apart pair's
  std::vector<Cause> causes;          // the same pair's causes, best first
};

// What to look at for a factor.
std::string DiffAdvice(DiffFactor factor);

// Which paths to pair. Empty: every path of a with the path of b at the same position (the
// reports must hold as many paths); else the one pair named.
struct PathChoice {
  std::string a_path, b_path;
};

// InvalidArgument (one line) when the paths cannot be paired: different counts without a
// choice, or a chosen path that is not in its report.
Result<Diff> DiffReports(const model::Report& a, const model::Report& b, const std::string& a_name,
                         const std::string& b_name, const PathChoice& choice = {});

}  // namespace durprobe::explain
