// The SQLite workloads beyond the commit matrix: read path, connection cost, locks, concurrent
// mixed load and WAL growth. Each runs on fresh databases in the scratch directory, verifies what
// it read or wrote, and returns plain results (sqlite_bench/workload_result.h). Never prints.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "sqlite_bench/concurrency_bench.h"
#include "sqlite_bench/connect_bench.h"
#include "sqlite_bench/lock_bench.h"
#include "sqlite_bench/read_bench.h"
#include "sqlite_bench/wal_growth_bench.h"
#include "sqlite_bench/workload_result.h"

namespace durprobe::sqlite_bench {

enum class Workload { kRead, kConnect, kLocks, kConcurrency, kWalGrowth };
std::string_view NameOf(Workload w);  // "read", "connect", "locks", "concurrency", "wal_growth"
// The order they run and print in.
std::vector<Workload> AllWorkloads();

struct WorkloadOptions {
  std::uint64_t budget_ns = 10'000'000'000;  // all selected workloads together
  std::uint64_t kv_rows = 100'000;           // rows in the lookup table (read, connect)
  std::uint64_t max_queries = 200'000;       // per read variant at most; the budget may end first
  std::uint32_t threads = 10;                // concurrency: workers contending for the write lock
  std::uint32_t processes = 4;               // concurrency via fork; 0 skips that variant
  double write_share = 1.0 / 3.0;            // concurrency: share of operations that write
  std::uint64_t ops_per_worker = 200;        // each concurrency worker's reads and writes
  std::int64_t busy_timeout_ms = 5000;       // the tuned concurrency settings
  std::uint32_t wal_rounds = 12;             // WAL growth: samples while the reader holds on
  std::uint32_t wal_commits_per_round = 40;
  std::uint32_t wal_rows_per_commit = 20;
  // The run's deadline on the platform's clock (run/deadline.h), 0 for none: past it the locks
  // and concurrency workloads start no case or variant after their first, and concurrency's
  // workers stop.
  std::uint64_t deadline_ns = 0;
};

struct WorkloadPlan {
  std::vector<Workload> workloads;
  WorkloadOptions options;
};

// "workload label: reason" for every entry that ended in an error (SQLite failure or a
// verification mismatch); unsupported and interrupted entries are not failures.
std::vector<std::string> WorkloadErrors(const WorkloadResults& results);

// The plan's workloads in the order they run (AllWorkloads() order).
std::vector<Workload> SelectedWorkloads(const WorkloadPlan& plan);
// Workload w's share of the plan's budget, by weight among the selected ones.
std::uint64_t WorkloadBudget(const WorkloadPlan& plan, Workload w);
// Runs one workload with its share of the budget and stores its results in into.
void RunWorkload(platform::Platform& platform, const std::string& dir, const WorkloadPlan& plan,
                 Workload w, WorkloadResults& into);

}  // namespace durprobe::sqlite_bench
