// One worker of the concurrent mixed load: its own connection, a planned sequence of
// reads (SELECT COUNT(*)) and writes (BEGIN IMMEDIATE, one INSERT, COMMIT), SQLITE_BUSY counted
// and never retried by the worker itself (a busy_timeout retries inside SQLite). The same code
// runs on a thread or in a forked process; its stats travel back as bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "platform/platform.h"
#include "probes/histogram.h"

namespace durprobe::sqlite_bench {

inline constexpr const char* kMetricsCreateSql =
    "CREATE TABLE metrics (id INTEGER PRIMARY KEY AUTOINCREMENT, val TEXT)";

struct WorkerConfig {
  std::string path;
  std::uint32_t worker = 0;
  std::string synchronous;         // "FULL", "NORMAL"
  std::int64_t busy_timeout_ms = 0;
  std::uint64_t ops = 200;
  double write_share = 1.0 / 3.0;
  std::uint64_t deadline_ns = 0;   // platform clock; stop before starting an operation past it
};

struct WorkerCounts {
  std::uint64_t ops = 0;  // attempted
  std::uint64_t reads = 0, writes = 0;
  std::uint64_t busy_reads = 0, busy_writes = 0;
  std::uint64_t checksum = 0;  // sum of Fnv1a(val) over committed rows (order does not matter)
  bool deadline_hit = false;
};

struct WorkerStats {
  WorkerCounts counts;
  probes::Histogram write_latency, read_latency;
  std::string error;  // a failure other than SQLITE_BUSY; the worker stopped there
};

// Whether operation i is a write: spreads round(ops x share) writes evenly over the sequence.
bool IsWriteOp(std::uint64_t i, double share);
std::string MetricValue(std::uint32_t worker, std::uint64_t i);  // "w<worker>-<i>"
std::uint64_t Fnv1a(const std::string& s);

// Opens and prepares, then calls wait_start (false: give up before the first operation), then
// runs. Errors go into stats->error.
void RunWorker(platform::Platform& platform, const WorkerConfig& config,
               const std::function<bool()>& wait_start, WorkerStats* stats);

std::string EncodeStats(const WorkerStats& stats);
Result<WorkerStats> DecodeStats(const std::string& bytes);

}  // namespace durprobe::sqlite_bench
