#include "codec/sqlite_workloads_json.h"

#include "codec/report_json.h"

namespace durprobe::codec {
namespace {

using nlohmann::json;
using namespace sqlite_bench;

json Entry(const char* workload, const WorkloadStatus& s) {
  json j{{"workload", workload}, {"status", probes::NameOf(s.outcome)}};
  if (!s.reason.empty()) j["reason"] = s.reason;
  return j;
}

json Checkpoint(const CheckpointAnswer& c) {
  return json{{"busy", c.busy}, {"log", c.log}, {"checkpointed", c.checkpointed}};
}

json Read(const ReadResult& r) {
  json j = Entry("read", r);
  j.update({{"variant", r.variant},
            {"database", r.database},
            {"journal_mode", r.journal_mode},
            {"cache_size", r.cache_size},
            {"mmap_size", r.mmap_size},
            {"pragmas",
             {{"cache_size", r.cache_size},
              {"mmap_size", r.mmap_size},
              {"journal_mode", r.journal_mode}}},
            {"cold", r.cold},
            {"rows", r.rows},
            {"queries", r.queries},
            {"seconds", r.seconds},
            {"queries_per_sec", r.queries_per_sec},
            {"latency_ns", ToJson(r.latency)}});
  if (!r.cold_note.empty()) j["cold_note"] = r.cold_note;
  return j;
}

json Connect(const ConnectResult& r) {
  json j = Entry("connect", r);
  j.update({{"mode", r.mode},
            {"rows", r.rows},
            {"ops", r.ops},
            {"seconds", r.seconds},
            {"us_per_op", r.us_per_op},
            {"latency_ns", ToJson(r.latency)}});
  return j;
}

json Lock(const LockResult& r) {
  json j = Entry("locks", r);
  j.update({{"journal_mode", r.journal_mode},
            {"case", r.lock_case},
            {"via", r.via},
            {"busy_timeout_ms", 0}});
  if (r.outcome != probes::Outcome::kOk) return j;
  j.update({{"outcome", r.lock_outcome},
            {"final_value", r.final_value},
            {"expected_value", r.expected_value}});
  if (r.lock_outcome == "busy") j.update({{"busy_at", r.busy_at}, {"message", r.message}});
  return j;
}

json Concurrency(const ConcurrencyResult& r) {
  json j = Entry("concurrency", r);
  j.update({{"settings", r.settings},
            {"via", r.via},
            {"journal_mode", r.journal_mode},
            {"synchronous", r.synchronous},
            {"busy_timeout_ms", r.busy_timeout_ms},
            {"write_share", r.write_share},
            {"ops_per_worker", r.ops_per_worker},
            {"ops", r.ops},
            {"reads", r.reads},
            {"writes", r.writes},
            {"busy_errors", r.busy_errors},
            {"busy_reads", r.busy_reads},
            {"busy_writes", r.busy_writes},
            {"deadline_hit", r.deadline_hit},
            {"seconds", r.seconds},
            {"ops_per_sec", r.ops_per_sec},
            {"write_latency_ns", ToJson(r.write_latency)},
            {"read_latency_ns", ToJson(r.read_latency)},
            {"verified_rows", r.verified_rows}});
  j[r.via == "processes" ? "processes" : "threads"] = r.workers;
  return j;
}

json WalGrowth(const WalGrowthResult& r) {
  json j = Entry("wal_growth", r);
  json checkpoints = json::array(), series = json::array();
  for (const CheckpointAnswer& c : r.checkpoints) checkpoints.push_back(Checkpoint(c));
  for (const WalSample& s : r.series) {
    series.push_back({{"t_ms", s.t_ms},
                      {"commits", s.commits},
                      {"wal_bytes", s.wal_bytes},
                      {"passive", Checkpoint(s.passive)}});
  }
  j.update({{"synchronous", r.synchronous},
            {"wal_autocheckpoint", r.wal_autocheckpoint},
            {"rows_per_commit", r.rows_per_commit},
            {"commits", r.commits},
            {"reader_rows", r.reader_rows},
            {"reader_snapshot_stable", r.reader_snapshot_stable},
            {"max_wal_bytes", r.max_wal_bytes},
            {"checkpoints", checkpoints},
            {"series", series},
            {"passive_after_reader", Checkpoint(r.passive_after_reader)},
            {"wal_bytes_after_passive", r.wal_bytes_after_passive},
            {"truncate", Checkpoint(r.truncate)},
            {"wal_bytes_after_truncate", r.wal_bytes_after_truncate},
            {"verified_rows", r.verified_rows}});
  return j;
}

}  // namespace

json ToJson(const WorkloadResults& results) {
  json out = json::array();
  for (const ReadResult& r : results.read) out.push_back(Read(r));
  for (const ConnectResult& r : results.connect) out.push_back(Connect(r));
  for (const LockResult& r : results.locks) out.push_back(Lock(r));
  for (const ConcurrencyResult& r : results.concurrency) out.push_back(Concurrency(r));
  for (const WalGrowthResult& r : results.wal_growth) out.push_back(WalGrowth(r));
  return out;
}

}  // namespace durprobe::codec
