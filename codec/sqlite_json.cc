#include "codec/sqlite_json.h"

#include <fmt/format.h>

#include "analysis/sqlite_correlation.h"
#include "codec/flush_json.h"
#include "codec/json_fields.h"
#include "codec/repeats_json.h"
#include "codec/report_json.h"

namespace durprobe::codec {
namespace {

using nlohmann::json;
using sqlite_bench::CommitResult;
using sqlite_bench::FileKind;
using sqlite_bench::KindCounts;

json KindPerCommit(const CommitResult& r, const KindCounts& k) {
  return json{{"opens", r.PerCommit(k.opens)},
              {"syncs", r.PerCommit(k.syncs)},
              {"sync_normal", r.PerCommit(k.sync_normal)},
              {"sync_full", r.PerCommit(k.sync_full)},
              {"sync_dataonly", r.PerCommit(k.sync_dataonly)},
              {"sync_ns", r.PerCommit(k.sync_ns)},
              {"syncs_grown", r.PerCommit(k.syncs_grown)},
              {"writes", r.PerCommit(k.writes)},
              {"write_bytes", r.PerCommit(k.write_bytes)},
              {"reads", r.PerCommit(k.reads)},
              {"read_bytes", r.PerCommit(k.read_bytes)},
              {"truncates", r.PerCommit(k.truncates)},
              {"deletes", r.PerCommit(k.deletes)},
              {"deletes_dirsync", r.PerCommit(k.deletes_dirsync)},
              {"locks", r.PerCommit(k.locks)},
              {"unlocks", r.PerCommit(k.unlocks)},
              {"shm_locks", r.PerCommit(k.shm_locks)},
              {"dir_syncs", r.PerCommit(k.dir_syncs)}};
}

json Totals(const sqlite_bench::VfsCounts& c) {
  return json{{"sync_calls", c.sync_calls()},
              {"syncs", c.syncs()},
              {"dir_syncs", c.dir_syncs()},
              {"sync_ns", c.sync_ns()}};
}

json OrNull(bool available, double value) { return available ? json(value) : json(nullptr); }

}  // namespace

json ToJson(const model::SqliteEntry& e) {
  const CommitResult& r = e.result;
  const model::SqliteCorrelation& c = e.correlation;
  const model::RowRisk& risk = e.risk;
  json j{{"journal_mode", sqlite_bench::NameOf(r.config.journal)},
         {"synchronous", sqlite_bench::NameOf(r.config.sync)},
         {"rows_per_commit", r.config.rows_per_commit},
         {"statement", sqlite_bench::NameOf(r.config.statement)},
         {"payload_bytes", r.config.payload_bytes},
         {"fullfsync", r.config.fullfsync ? json(*r.config.fullfsync) : json(nullptr)},
         {"status", probes::NameOf(r.outcome)},
         {"risk",
          {{"level", NameOf(risk.level)},
           {"summary", risk.summary},
           {"documented_level", NameOf(risk.documented_level)},
           {"findings", risk.findings}}}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (r.outcome != probes::Outcome::kOk) return j;
  model::SyncsPerCommit s = analysis::SyncsOf(e);
  j["commits_per_sec"] = r.commits_per_sec;
  j["latency_ns"] = ToJson(r.latency);
  j["syncs_per_commit"] = {
      {"total", s.total}, {"db", s.db}, {"journal", s.journal}, {"wal", s.wal}, {"dir", s.dir}};
  j["sync_time_share"] = analysis::SyncTimeShareOf(e);
  if (r.device_flushes.counted) j["device_flushes"] = ToJson(r.device_flushes);
  j["predicted_commit_ns"] = OrNull(c.available, c.predicted_ns);
  j["explained_share"] = OrNull(c.available, c.explained_share);
  j["residual_share"] = OrNull(c.available, c.residual_share);
  j["predicted_sync_ns"] = OrNull(c.available, c.predicted_sync_ns);
  j["measured_commit_ns"] = c.measured_ns;
  j["correlation_basis"] = model::NameOf(c.basis);
  j["reference_scale"] = c.reference_scale;
  if (c.flushes_per_commit && c.probe_flushes_per_commit) {
    j["flushes_per_commit"] = *c.flushes_per_commit;
    j["probe_flushes_per_commit"] = *c.probe_flushes_per_commit;
    j["flush_scale"] = c.flush_scale;
  }
  j["sqlite_sync_mean_ns"] = c.sqlite_sync_mean_ns;
  j["probe_sync_mean_ns"] = OrNull(c.available, c.probe_sync_mean_ns);
  if (!c.available && !c.missing.empty()) j["correlation_missing"] = c.missing;
  json probes_used = json::object();
  for (const auto& [kind, ns] : c.probe_ns) {
    probes_used[kind] = {{"probe", c.probe_label.at(kind)},
                         {"mean_sync_ns", ns},
                         {"syncs_per_commit", c.syncs_per_commit.at(kind)}};
  }
  j["probe_latency"] = probes_used;
  j["speedup_vs_delete_full"] = e.speedup ? json(*e.speedup) : json(nullptr);
  if (e.repeats) j["repeats"] = ToJson(*e.repeats);
  // A row read from an older report has no counts: write only what it had.
  if (e.saved) return j;
  j["rows_per_sec"] = r.rows_per_sec;
  j["mean_commit_ns"] = r.MeanCommitNs();
  j["sync_ns_per_commit"] = r.SyncNsPerCommit();
  j["non_sync_ns_per_commit"] = r.MeanCommitNs() - r.SyncNsPerCommit();
  j["journal_mode_actual"] = r.journal_mode_actual;
  j["sync_primitive"] = r.sync_primitive;
  j["dir_syncs_inferred"] = r.dir_syncs_inferred;
  j["repetitions"] = r.repetitions;
  j["repetition_commits_per_sec"] = r.repetition_commits_per_sec;
  json windows = json::array();
  for (const sqlite_bench::Repetition& w : r.repetition_windows) {
    windows.push_back({{"start_s", SecondsSinceStart(w.start_ns)},
                       {"end_s", SecondsSinceStart(w.end_ns)},
                       {"commits", w.commits},
                       {"commit_ns", w.commit_ns},
                       {"sync_calls", w.sync_calls},
                       {"sync_ns", w.sync_ns}});
  }
  j["repetition_windows"] = windows;
  j["warmup_commits"] = r.warmup_commits;
  j["commits"] = r.commits;
  j["rows"] = r.rows;
  j["timed_seconds"] = double(r.timed_ns) / 1e9;
  json per_kind = json::object();
  for (FileKind k : {FileKind::kDb, FileKind::kJournal, FileKind::kWal, FileKind::kOther}) {
    per_kind[std::string(sqlite_bench::NameOf(k))] = KindPerCommit(r, r.commit_counts.of(k));
  }
  j["vfs_per_commit"] = per_kind;
  j["checkpoints"] = {{"count", r.checkpoints.count},
                      {"ns", r.checkpoints.ns},
                      {"ns_per_commit", r.PerCommit(r.checkpoints.ns)},
                      {"sync_calls", r.checkpoints.counts.sync_calls()},
                      {"sync_ns", r.checkpoints.counts.sync_ns()}};
  j["vfs_totals"] = {{"setup", Totals(r.setup_counts)},
                     {"commits", Totals(r.commit_counts)},
                     {"checkpoints", Totals(r.checkpoints.counts)},
                     {"verify", Totals(r.verify_counts)},
                     {"all", Totals(r.AllCounts())}};
  j["verified_rows"] = r.verified_rows;
  j["checksum"] = fmt::format("{:016x}", r.checksum);
  return j;
}

json ToJson(const sqlite_bench::SqliteBuildInfo& info) {
  return json{{"version", info.version},
              {"source_id", info.source_id},
              {"default_synchronous", info.default_synchronous},
              {"default_wal_synchronous", info.default_wal_synchronous},
              {"dirsync", info.dirsync},
              {"default_wal_autocheckpoint", info.default_wal_autocheckpoint},
              {"compile_options", info.compile_options}};
}

}  // namespace durprobe::codec
