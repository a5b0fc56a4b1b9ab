// diff's analysis: two saved reports (read by report/json_reader.h), and for every SQLite
// configuration both measured, the commit-time gap split into sync latency, sync count and
// non-sync time; plus the configuration differences that can explain it. Pure: reads the model.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/status.h"
#include "report/report.h"

namespace durprobe::report {

inline constexpr const char* kDiffSchema = "durprobe.diff/1";
// A commit-time gap under this fraction is not attributed (its shares are noise).
inline constexpr double kMeaningfulGap = 0.05;

struct ConfigDiff {
  std::string journal_mode, synchronous;
  std::int64_t rows_per_commit = 1;
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
ConfigDiff DiffConfig(const SqliteEntry& a, const SqliteEntry& b);

struct Difference {
  std::string key;
  std::string a, b;
};

struct DiffVerdict {
  std::string factor;  // sync_latency | sync_count | non_sync | configuration
  std::string message;
};

struct Diff {
  std::string a_name, b_name;
  std::vector<ConfigDiff> configs;
  std::vector<Difference> differences;
  DiffVerdict verdict;
};

// Diffs the first target of each report.
Diff DiffReports(const Report& a, const Report& b, const std::string& a_name,
                 const std::string& b_name);

nlohmann::json ToJson(const Diff& diff);

}  // namespace durprobe::report
