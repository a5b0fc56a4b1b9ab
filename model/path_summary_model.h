// The answer first (issue 22): per path, a summary read in ten seconds and the settings to use,
// decided once (explain/path_summary.h) and printed by every format as decided.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/durability.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::model {

// One SQLite setting the summary names: its rate against the default and what it may lose.
struct SummarySetting {
  std::string label;                 // "WAL/NORMAL x1"
  double commits_per_sec = 0;        // the median of the repetitions' rates, as every table prints
  std::optional<double> vs_default;  // commits_per_sec over DELETE/FULL x1's, when that ran
  sqlite_bench::RiskLevel risk = sqlite_bench::RiskLevel::kNone;  // the row's risk level
  std::string loses;  // what it may lose, as SQLite documents it and crashsim saw it
};

struct PathSummary {
  std::string what;  // filesystem, device and cache, layer, container role
  std::optional<DurabilityVerdict> durability;  // unset when not assessed
  std::string durability_line;  // the verdict, its deciding layer and reason, in one line
  std::string sync_probe;       // "fdatasync overwrite 4 KiB", "" when no sync probe ran
  std::optional<double> sync_p50_ns, sync_p99_ns;  // the sync call alone where timed apart
  std::optional<double> synced_writes_per_sec;     // that probe's measured rate, one writer
  // With two device states (Target::device_states) and that probe seen in both: its figures in
  // the slow state (the one to plan for, the headline's first) and in the fast one, each with
  // the share of its time spent there.
  struct SlowState {
    double p50_ns = 0.0;
    std::optional<double> p99_ns;
    double time_share = 0.0;
  };
  std::optional<SlowState> sync_slow_state;
  std::optional<SlowState> sync_fast_state;
  std::optional<SummarySetting> sqlite_default;  // DELETE/FULL x1
  std::optional<SummarySetting> sqlite_safe;     // fastest that keeps every acknowledged commit
  std::optional<SummarySetting> sqlite_fast;     // fastest that risks only the last commits
  std::vector<std::string> findings;  // the codes of the one or two findings that matter most
  std::string next_step;              // one sentence
};

// One setting to use for one system, with the measurement it rests on.
struct PathAdvice {
  std::string system;    // "sqlite", "postgresql", "etcd"
  std::string setting;   // "journal_mode=WAL, synchronous=FULL", "wal_sync_method=fdatasync"
  std::string why;       // one sentence: what it gains and what it risks
  std::string evidence;  // the measurement: "sqlite WAL/FULL x1: 573 commits/s, 7.66x ..."
};

}  // namespace durprobe::model
