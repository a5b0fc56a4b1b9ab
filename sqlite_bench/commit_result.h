// The plain data one commit-matrix configuration produces. Reporters format it; the correlation
// in analysis/ reads it together with the probe results.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "probes/flush_tally.h"
#include "probes/probe_result.h"
#include "probes/statistics.h"
#include "sqlite_bench/commit_spec.h"
#include "sqlite_bench/vfs_counts.h"

namespace durprobe::sqlite_bench {

// Checkpoints that ran inside timed commits (the autocheckpoint after a commit), measured apart
// and taken out of the commits' latency.
struct CheckpointStats {
  std::uint64_t count = 0;
  std::uint64_t ns = 0;
  VfsCounts counts;  // what the checkpoints did at the VFS
};

// One timed repetition: its window (monotonic ns, which the executor rebases to the run's start),
// its commits and the syncs SQLite made in them, so a device that changes state shows.
struct Repetition {
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint64_t commits = 0;
  std::uint64_t commit_ns = 0;  // sum of the commits' latencies (checkpoints excluded)
  std::uint64_t sync_calls = 0, sync_ns = 0;
  bool operator==(const Repetition&) const = default;
};

struct CommitResult {
  CommitConfig config;
  probes::Outcome outcome = probes::Outcome::kOk;
  std::string reason;               // why not ok
  std::string journal_mode_actual;  // what PRAGMA journal_mode answered
  std::string sync_primitive;       // what a sync becomes here: "fdatasync", "fsync", "full_fsync"
  bool dir_syncs_inferred = false;  // see counting_vfs.h

  std::uint32_t repetitions = 0;
  std::uint64_t warmup_commits = 0;
  std::uint64_t commits = 0;   // timed, over all repetitions
  std::uint64_t rows = 0;      // timed rows
  std::uint64_t timed_ns = 0;  // sum of commit latencies (checkpoints excluded)
  std::vector<double> repetition_commits_per_sec;
  std::vector<Repetition> repetition_windows;  // the same repetitions, in time
  double commits_per_sec = 0.0;                // median over repetitions
  double rows_per_sec = 0.0;                   // commits_per_sec x rows per commit
  probes::LatencySummary latency;  // one transaction: BEGIN (if any), the INSERTs, COMMIT

  VfsCounts commit_counts;  // during timed commits only
  VfsCounts setup_counts;   // schema, pragmas, warm-up
  VfsCounts verify_counts;  // read-back and close (a WAL close checkpoints)
  CheckpointStats checkpoints;
  // What the devices completed during the timed commits (checkpoints in them included), and in
  // an idle slice after each repetition; no control: the synchronous=OFF rows are that.
  probes::FlushTally device_flushes;

  std::uint64_t verified_rows = 0;  // rows read back, checksum matching
  std::uint64_t checksum = 0;

  // Per timed commit.
  double PerCommit(std::uint64_t n) const { return commits ? double(n) / double(commits) : 0.0; }
  double MeanCommitNs() const { return PerCommit(timed_ns); }
  double SyncNsPerCommit() const { return PerCommit(commit_counts.sync_ns()); }
  // SQLite's own mean sync latency (every xSync and directory sync of the timed commits).
  double MeanSyncNs() const {
    std::uint64_t n = commit_counts.sync_calls();
    return n ? double(commit_counts.sync_ns()) / double(n) : 0.0;
  }
  double SyncTimeShare() const {
    return timed_ns ? double(commit_counts.sync_ns()) / double(timed_ns) : 0.0;
  }
  // Every phase, as a syscall tracer of the whole run would see it.
  VfsCounts AllCounts() const;
};

}  // namespace durprobe::sqlite_bench
