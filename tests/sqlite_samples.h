// Sample SQLite results for the report tests: probes with known sync latencies and a
// DELETE/FULL-like commit result whose counts and times are round numbers.
#pragma once

#include <vector>

#include "probes/probe_result.h"
#include "sqlite_bench/commit_result.h"

namespace durprobe::testing_support {

using sqlite_bench::FileKind;

inline probes::ProbeResult Probe(probes::Primitive p, probes::Pattern pat, std::uint64_t size,
                                 std::uint64_t sync_p50) {
  probes::ProbeResult r;
  r.spec = {p, pat, size};
  r.ops = 100;
  r.has_sync_part = true;
  r.sync_latency.p50 = sync_p50;
  r.sync_latency.mean = static_cast<double>(sync_p50);  // the correlation uses means
  r.latency.p50 = sync_p50 + 5'000;
  r.latency.mean = static_cast<double>(sync_p50 + 5'000);
  return r;
}

inline std::vector<probes::ProbeResult> Probes() {
  return {Probe(probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096, 100'000),
          Probe(probes::Primitive::kFdatasync, probes::Pattern::kAppend, 4096, 200'000),
          Probe(probes::Primitive::kDirFsync, probes::Pattern::kCreate, 0, 50'000)};
}

// DELETE/FULL-like: per commit 2 journal syncs (both after growth), 1 db overwrite, 1 dir sync.
inline sqlite_bench::CommitResult DeleteFull(std::uint64_t commits = 100) {
  sqlite_bench::CommitResult r;
  r.config = {sqlite_bench::JournalMode::kDelete,
              sqlite_bench::Synchronous::kFull,
              1,
              sqlite_bench::StatementMode::kReused,
              100,
              std::nullopt};
  r.sync_primitive = "fdatasync";
  r.commits = commits;
  r.rows = commits;
  r.timed_ns = commits * 700'000;  // mean commit 700 us
  r.latency.count = commits;
  r.latency.p50 = 650'000;
  r.latency.p99 = 900'000;
  r.latency.p999 = 1'200'000;
  r.latency.max = 1'200'000;
  r.commits_per_sec = 1e9 / 700'000;
  r.rows_per_sec = r.commits_per_sec;
  r.commit_counts.of(FileKind::kJournal).syncs = 2 * commits;
  r.commit_counts.of(FileKind::kJournal).syncs_grown = 2 * commits;
  r.commit_counts.of(FileKind::kJournal).dir_syncs = commits;
  r.commit_counts.of(FileKind::kDb).syncs = commits;
  r.commit_counts.of(FileKind::kJournal).sync_ns = commits * 500'000;
  r.commit_counts.of(FileKind::kDb).sync_ns = commits * 100'000;
  return r;
}

}  // namespace durprobe::testing_support
