// The plain data `durprobe crashsim` produces per journal_mode x synchronous x batch: how often a
// simulated power cut left a corrupt database, and how many acknowledged commits it lost.
// Reporters format it; nothing here knows SQLite's API.
#pragma once

#include <cstdint>
#include <string>

#include "probes/probe_result.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::sqlite_bench {

struct CrashsimConfig {
  JournalMode journal = JournalMode::kDelete;
  Synchronous sync = Synchronous::kFull;
  std::uint32_t rows_per_commit = 1;
  bool operator==(const CrashsimConfig&) const = default;
};

struct CrashsimResult {
  CrashsimConfig config;
  probes::Outcome outcome = probes::Outcome::kOk;
  std::string reason;         // why not ok
  std::uint64_t seed = 0;     // --seed: the same seed gives the same row
  std::string device;         // simulated device guarantees, "none" or a comma list
  std::uint64_t commits = 0;  // commits the workload attempts in each trial
  std::uint64_t crash_points =
      0;                     // calls a crash can precede (disk-changing calls + 1 for "after")
  std::uint64_t trials = 0;  // crash images recovered and checked
  std::uint64_t crash_states = 0;  // distinct images among them
  // Recovered with plain SQLite, the image failed PRAGMA integrity_check, could not be read, or
  // held rows no acknowledged prefix of commits explains (a partial or reordered commit).
  std::uint64_t corrupt = 0;
  // Acknowledged commits (COMMIT returned before the power went) missing after recovery, over the
  // trials that were not corrupt.
  std::uint64_t trials_with_loss = 0;
  std::uint64_t lost_commits_max = 0;
  double lost_commits_mean = 0.0;  // over all non-corrupt trials, losses of 0 included
  std::string corrupt_example;     // what the first corrupt trial's check said
};

}  // namespace durprobe::sqlite_bench
