// The SQLite workloads beyond commits in a saved report (written by
// codec/sqlite_workloads_json.cc). An entry whose workload this durprobe does not know (a
// newer writer's) is skipped, as unknown keys are.
#include "codec/sqlite_workloads_json_reader.h"

#include "codec/json_reader_sections.h"

namespace durprobe::codec {
namespace {

using namespace sqlite_bench;

void ReadStatus(const JsonFields& f, WorkloadStatus& s) {
  s.outcome = ReadOutcome(f);
  s.reason = f.String("reason");
}

CheckpointAnswer ReadCheckpoint(const JsonFields& f) {
  CheckpointAnswer c;
  c.busy = static_cast<int>(f.Int("busy"));
  c.log = static_cast<int>(f.Int("log"));
  c.checkpointed = static_cast<int>(f.Int("checkpointed"));
  return c;
}

ReadResult Read(const JsonFields& f) {
  ReadResult r;
  ReadStatus(f, r);
  r.variant = f.String("variant");
  r.database = f.String("database");
  r.journal_mode = f.String("journal_mode");
  r.cache_size = f.Int("cache_size");
  r.mmap_size = f.Int("mmap_size");
  r.cold = f.Bool("cold");
  r.cold_note = f.String("cold_note");
  r.rows = f.Uint("rows");
  r.queries = f.Uint("queries");
  r.seconds = f.Double("seconds");
  r.queries_per_sec = f.Double("queries_per_sec");
  r.latency = ReadLatency(f.Object("latency_ns"));
  return r;
}

ConnectResult Connect(const JsonFields& f) {
  ConnectResult r;
  ReadStatus(f, r);
  r.mode = f.String("mode");
  r.rows = f.Uint("rows");
  r.ops = f.Uint("ops");
  r.seconds = f.Double("seconds");
  r.us_per_op = f.Double("us_per_op");
  r.latency = ReadLatency(f.Object("latency_ns"));
  return r;
}

LockResult Lock(const JsonFields& f) {
  LockResult r;
  ReadStatus(f, r);
  r.journal_mode = f.String("journal_mode");
  r.lock_case = f.String("case");
  r.via = f.String("via");
  r.lock_outcome = f.String("outcome");
  r.final_value = f.String("final_value");
  r.expected_value = f.String("expected_value");
  r.busy_at = f.String("busy_at");
  r.message = f.String("message");
  return r;
}

ConcurrencyResult Concurrency(const JsonFields& f) {
  ConcurrencyResult r;
  ReadStatus(f, r);
  r.settings = f.String("settings");
  r.via = f.String("via");
  r.journal_mode = f.String("journal_mode");
  r.synchronous = f.String("synchronous");
  r.busy_timeout_ms = f.Int("busy_timeout_ms");
  r.write_share = f.Double("write_share");
  r.ops_per_worker = f.Uint("ops_per_worker");
  r.ops = f.Uint("ops");
  r.reads = f.Uint("reads");
  r.writes = f.Uint("writes");
  r.busy_errors = f.Uint("busy_errors");
  r.busy_reads = f.Uint("busy_reads");
  r.busy_writes = f.Uint("busy_writes");
  r.deadline_hit = f.Bool("deadline_hit");
  r.seconds = f.Double("seconds");
  r.ops_per_sec = f.Double("ops_per_sec");
  r.write_latency = ReadLatency(f.Object("write_latency_ns"));
  r.read_latency = ReadLatency(f.Object("read_latency_ns"));
  r.verified_rows = f.Uint("verified_rows");
  r.workers = static_cast<std::uint32_t>(f.Uint(r.via == "processes" ? "processes" : "threads"));
  return r;
}

WalGrowthResult WalGrowth(const JsonFields& f) {
  WalGrowthResult r;
  ReadStatus(f, r);
  r.synchronous = f.String("synchronous");
  r.wal_autocheckpoint = static_cast<int>(f.Int("wal_autocheckpoint"));
  r.rows_per_commit = f.Uint("rows_per_commit");
  r.commits = f.Uint("commits");
  r.reader_rows = f.Uint("reader_rows");
  r.reader_snapshot_stable = f.Bool("reader_snapshot_stable");
  r.max_wal_bytes = f.Uint("max_wal_bytes");
  f.Each("checkpoints", Need::kOptional,
         [&](const JsonFields& c) { r.checkpoints.push_back(ReadCheckpoint(c)); });
  f.Each("series", Need::kOptional, [&](const JsonFields& s) {
    r.series.push_back({s.Double("t_ms"), s.Uint("commits"), s.Uint("wal_bytes"),
                        ReadCheckpoint(s.Object("passive"))});
  });
  r.passive_after_reader = ReadCheckpoint(f.Object("passive_after_reader"));
  r.wal_bytes_after_passive = f.Uint("wal_bytes_after_passive");
  r.truncate = ReadCheckpoint(f.Object("truncate"));
  r.wal_bytes_after_truncate = f.Uint("wal_bytes_after_truncate");
  r.verified_rows = f.Uint("verified_rows");
  return r;
}

}  // namespace

WorkloadResults ReadWorkloads(const JsonFields& target) {
  WorkloadResults out;
  target.Each("sqlite_workloads", Need::kOptional, [&](const JsonFields& f) {
    std::string workload = f.String("workload", Need::kRequired);
    if (workload == "read") out.read.push_back(Read(f));
    if (workload == "connect") out.connect.push_back(Connect(f));
    if (workload == "locks") out.locks.push_back(Lock(f));
    if (workload == "concurrency") out.concurrency.push_back(Concurrency(f));
    if (workload == "wal_growth") out.wal_growth.push_back(WalGrowth(f));
  });
  return out;
}

}  // namespace durprobe::codec
