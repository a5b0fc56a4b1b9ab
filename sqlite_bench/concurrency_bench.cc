// Concurrent mixed load: N workers with their own connection, a share of writes with
// BEGIN IMMEDIATE and the rest reads, under SQLite's defaults (rollback journal, FULL,
// busy_timeout 0) and under WAL + NORMAL + busy_timeout. Workers are threads, then forked
// processes. Afterwards the table must hold exactly the rows the workers committed.
#include "sqlite_bench/concurrency_bench.h"

#include <fmt/format.h>

#include <latch>
#include <thread>

#include "platform/child_process.h"
#include "platform/interrupt.h"
#include "platform/thread.h"
#include "sqlite_bench/concurrency_worker.h"
#include "sqlite_bench/kv_table.h"
#include "sqlite_bench/past_deadline.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::sqlite_bench {
namespace {

struct Settings {
  const char* name;
  const char* journal;
  const char* synchronous;
  bool busy_timeout;  // false: 0 (SQLite's default); true: the option's value
};

constexpr Settings kSettings[] = {
    {"default", "DELETE", "FULL", false},
    {"wal_normal_busy_timeout", "WAL", "NORMAL", true},
};

// Every committed row is there once: count and the order-free checksum of the values.
Result<std::uint64_t> VerifyMetrics(const std::string& path, std::uint64_t rows,
                                    std::uint64_t checksum) {
  Result<std::unique_ptr<Db>> db = Db::Open(path, nullptr);
  if (!db.ok()) return db.status();
  Result<Statement> scan = (*db)->Prepare("SELECT val FROM metrics");
  if (!scan.ok()) return scan.status();
  std::uint64_t n = 0, sum = 0;
  int rc;
  while ((rc = sqlite3_step(scan->get())) == SQLITE_ROW) {
    ++n;
    sum += Fnv1a(reinterpret_cast<const char*>(sqlite3_column_text(scan->get(), 0)));
  }
  if (rc != SQLITE_DONE) return SqliteError((*db)->get(), rc, "verify metrics");
  if (n != rows || sum != checksum) {
    return Status::Error(
        fmt::format("metrics holds {} rows (checksum {:016x}); workers committed "
                    "{} ({:016x})",
                    n, sum, rows, checksum));
  }
  return n;
}

Status ViaThreads(platform::Platform& platform, const std::vector<WorkerConfig>& configs,
                  std::vector<WorkerStats>* stats, std::uint64_t* elapsed_ns) {
  std::latch ready(static_cast<std::ptrdiff_t>(configs.size()));
  std::latch start(1);
  bool go = true;  // written before start opens, read after: the latch orders it
  std::vector<std::thread> threads;
  Status started;
  for (std::size_t i = 0; i < configs.size() && started.ok(); ++i) {
    Result<std::thread> t = platform::StartThread([&, i] {
      RunWorker(
          platform, configs[i],
          [&] {
            ready.count_down();
            start.wait();
            return go;
          },
          &(*stats)[i]);
    });
    if (t.ok()) {
      threads.push_back(std::move(*t));
    } else {
      started = t.status();
    }
  }
  // A thread the OS refused: the started ones are released without a start signal.
  if (started.ok()) ready.wait();
  go = started.ok();
  std::uint64_t t0 = platform.NowNanos();
  start.count_down();
  for (std::thread& t : threads) t.join();
  *elapsed_ns = platform.NowNanos() - t0;
  return started;
}

// Each child sends "ready" once it has opened and prepared, then its stats at the end.
Status ViaProcesses(platform::Platform& platform, const std::vector<WorkerConfig>& configs,
                    std::vector<WorkerStats>* stats, std::uint64_t* elapsed_ns) {
  std::vector<std::unique_ptr<platform::ChildProcess>> children;
  std::vector<int> siblings;  // the parent's ends of the children started so far
  for (const WorkerConfig& config : configs) {
    Result<std::unique_ptr<platform::ChildProcess>> child = platform::ChildProcess::Start(
        platform,
        [&](platform::ChildChannel& channel) {
          WorkerStats mine;
          RunWorker(
              platform, config,
              [&] { return channel.SendFrame("ready").ok() && channel.Receive().ok(); }, &mine);
          return channel.SendFrame(EncodeStats(mine)).ok() ? 0 : 1;
        },
        siblings);
    if (!child.ok()) return child.status();  // the started ones see end of stream and exit
    for (int fd : (*child)->ParentEnds()) siblings.push_back(fd);
    children.push_back(std::move(*child));
  }
  for (auto& child : children) {
    Result<std::string> ready = child->ReceiveFrame();
    if (!ready.ok()) return ready.status();
  }
  std::uint64_t t0 = platform.NowNanos();
  for (auto& child : children) {
    if (Status s = child->Send('g'); !s.ok()) return s;
  }
  Status first_error;
  for (std::size_t i = 0; i < children.size(); ++i) {
    Result<std::string> frame = children[i]->ReceiveFrame();
    Result<WorkerStats> decoded =
        frame.ok() ? DecodeStats(*frame) : Result<WorkerStats>(frame.status());
    if (decoded.ok()) {
      (*stats)[i] = std::move(*decoded);
    } else if (first_error.ok()) {
      first_error = decoded.status();
    }
  }
  *elapsed_ns = platform.NowNanos() - t0;
  for (auto& child : children) {
    Result<int> code = child->Wait();
    if (first_error.ok() && !code.ok()) first_error = code.status();
  }
  return first_error;
}

ConcurrencyResult RunVariant(platform::Platform& platform, const std::string& path,
                             const Settings& settings, bool processes, const WorkloadOptions& o,
                             std::uint64_t budget_ns) {
  ConcurrencyResult r;
  r.settings = settings.name;
  r.via = processes ? "processes" : "threads";
  r.workers = processes ? o.processes : o.threads;
  r.write_share = o.write_share;
  r.journal_mode = settings.journal;
  r.synchronous = settings.synchronous;
  r.busy_timeout_ms = settings.busy_timeout ? o.busy_timeout_ms : 0;
  r.ops_per_worker = o.ops_per_worker;
  Status s = CreateDatabase(platform, path, settings.journal, {kMetricsCreateSql});
  std::vector<WorkerConfig> configs(r.workers);
  std::vector<WorkerStats> stats(r.workers);
  const std::uint64_t now = platform.NowNanos();
  std::uint64_t deadline = now + budget_ns;
  // The run's deadline ends the workers early, unless it passed before the first variant began.
  if (o.deadline_ns > now) deadline = std::min(deadline, o.deadline_ns);
  for (std::uint32_t i = 0; i < r.workers; ++i) {
    configs[i] = WorkerConfig{
        path,          i,       settings.synchronous, r.busy_timeout_ms, o.ops_per_worker,
        o.write_share, deadline};
  }
  std::uint64_t elapsed = 0;
  if (s.ok()) {
    s = processes ? ViaProcesses(platform, configs, &stats, &elapsed)
                  : ViaThreads(platform, configs, &stats, &elapsed);
  }
  probes::Histogram writes, reads;
  std::uint64_t checksum = 0;
  for (const WorkerStats& w : stats) {
    r.ops += w.counts.ops;
    r.reads += w.counts.reads;
    r.writes += w.counts.writes;
    r.busy_reads += w.counts.busy_reads;
    r.busy_writes += w.counts.busy_writes;
    r.deadline_hit = r.deadline_hit || w.counts.deadline_hit;
    checksum += w.counts.checksum;
    writes.Merge(w.write_latency);
    reads.Merge(w.read_latency);
    if (s.ok() && !w.error.empty()) s = Status::Error(fmt::format("worker: {}", w.error));
  }
  r.busy_errors = r.busy_reads + r.busy_writes;
  r.seconds = double(elapsed) / 1e9;
  r.ops_per_sec = elapsed ? double(r.reads + r.writes) * 1e9 / double(elapsed) : 0.0;
  r.write_latency = probes::Summarize(writes);
  r.read_latency = probes::Summarize(reads);
  if (s.ok()) {
    Result<std::uint64_t> rows = VerifyMetrics(path, r.writes, checksum);
    if (rows.ok()) r.verified_rows = *rows;
    s = rows.status();
  }
  if (!s.ok()) {
    // A worker's interruption arrives as its error text; the signal itself says what happened.
    r.outcome =
        platform::InterruptSignal() != 0 ? probes::Outcome::kInterrupted : probes::Outcome::kError;
    r.reason = s.message();
  }
  RemoveDatabaseFiles(platform, path);
  return r;
}

}  // namespace

std::vector<ConcurrencyResult> RunConcurrencyWorkload(platform::Platform& platform,
                                                      const std::string& dir,
                                                      const WorkloadOptions& o,
                                                      std::vector<std::string>* cut) {
  std::vector<ConcurrencyResult> results;
  std::string path = dir + "/concurrency.db";
  int variants = 0;
  for (bool processes : {false, true}) variants += processes && o.processes == 0 ? 0 : 2;
  std::uint64_t per_variant = o.budget_ns / std::uint64_t(std::max(variants, 1));
  for (bool processes : {false, true}) {
    if (processes && o.processes == 0) continue;
    for (const Settings& settings : kSettings) {
      if (!results.empty() && PastDeadline(platform, o.deadline_ns)) {
        if (cut != nullptr) {
          cut->push_back(fmt::format("concurrency: {} via {}", settings.name,
                                     processes ? "processes" : "threads"));
        }
        continue;
      }
      results.push_back(RunVariant(platform, path, settings, processes, o, per_variant));
      if (results.back().outcome == probes::Outcome::kInterrupted) return results;
    }
  }
  return results;
}

}  // namespace durprobe::sqlite_bench
