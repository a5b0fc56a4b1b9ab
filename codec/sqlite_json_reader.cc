// The SQLite rows and build facts of a saved report (written by codec/sqlite_json.cc). The
// writer derives per-commit figures from counts; this reads the counts back from them (figure x
// commits, exact for counts below 2^53) so that writing again gives the same figures.
#include "codec/sqlite_json_reader.h"

#include <charconv>
#include <cmath>

#include "codec/flush_json.h"
#include "codec/json_reader_sections.h"
#include "codec/repeats_json.h"
#include "model/names.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::codec {
namespace {

using sqlite_bench::CommitResult;
using sqlite_bench::FileKind;
using sqlite_bench::KindCounts;
using sqlite_bench::VfsCounts;

std::uint64_t Count(double per_commit, std::uint64_t commits) {
  return static_cast<std::uint64_t>(std::llround(per_commit * double(commits)));
}

KindCounts ReadKindPerCommit(const JsonFields& f, std::uint64_t commits) {
  KindCounts k;
  auto n = [&](const char* key) { return Count(f.Double(key), commits); };
  k.opens = n("opens");
  k.syncs = n("syncs");
  k.sync_normal = n("sync_normal");
  k.sync_full = n("sync_full");
  k.sync_dataonly = n("sync_dataonly");
  k.sync_ns = n("sync_ns");
  k.syncs_grown = n("syncs_grown");
  k.writes = n("writes");
  k.write_bytes = n("write_bytes");
  k.reads = n("reads");
  k.read_bytes = n("read_bytes");
  k.truncates = n("truncates");
  k.deletes = n("deletes");
  k.deletes_dirsync = n("deletes_dirsync");
  k.locks = n("locks");
  k.unlocks = n("unlocks");
  k.shm_locks = n("shm_locks");
  k.dir_syncs = n("dir_syncs");
  return k;
}

// A phase saved as totals only; see the contract in codec/json_reader.h.
VfsCounts ReadTotals(const JsonFields& f) {
  VfsCounts c;
  KindCounts& k = c.of(FileKind::kOther);
  k.syncs = f.Uint("syncs");
  k.dir_syncs = f.Uint("dir_syncs");
  k.sync_ns = f.Uint("sync_ns");
  return c;
}

sqlite_bench::CommitConfig ReadConfig(const JsonFields& f) {
  sqlite_bench::CommitConfig c;
  c.journal = f.Enum("journal_mode", sqlite_bench::JournalModeNames(), c.journal, Need::kRequired);
  c.sync = f.Enum("synchronous", sqlite_bench::SynchronousNames(), c.sync, Need::kRequired);
  c.rows_per_commit = static_cast<std::uint32_t>(f.Uint("rows_per_commit", Need::kRequired));
  c.statement = f.Enum("statement", sqlite_bench::StatementModeNames(), c.statement);
  if (f.Has("payload_bytes")) c.payload_bytes = static_cast<std::uint32_t>(f.Uint("payload_bytes"));
  c.fullfsync = f.OptionalBool("fullfsync");
  return c;
}

// The counts of the timed commits and the other phases; false when the row has none saved.
bool ReadCounts(const JsonFields& f, CommitResult& r) {
  if (r.commits == 0 || !f.Has("vfs_per_commit")) return false;
  JsonFields per_kind = f.Object("vfs_per_commit");
  for (FileKind k : {FileKind::kDb, FileKind::kJournal, FileKind::kWal, FileKind::kOther}) {
    std::string name(sqlite_bench::NameOf(k));
    r.commit_counts.of(k) = ReadKindPerCommit(per_kind.Object(name.c_str()), r.commits);
  }
  JsonFields totals = f.Object("vfs_totals");
  r.setup_counts = ReadTotals(totals.Object("setup"));
  r.verify_counts = ReadTotals(totals.Object("verify"));
  r.checkpoints.counts = ReadTotals(totals.Object("checkpoints"));
  JsonFields checkpoints = f.Object("checkpoints");
  r.checkpoints.count = checkpoints.Uint("count");
  r.checkpoints.ns = checkpoints.Uint("ns");
  r.device_flushes = ReadFlushTally(f.Object("device_flushes"));
  return true;
}

model::SavedPerCommit ReadSaved(const JsonFields& f) {
  model::SavedPerCommit saved;
  JsonFields s = f.Object("syncs_per_commit", Need::kRequired);
  saved.syncs.total = s.Double("total", Need::kRequired);
  saved.syncs.db = s.Double("db", Need::kRequired);
  saved.syncs.journal = s.Double("journal", Need::kRequired);
  saved.syncs.wal = s.Double("wal", Need::kRequired);
  saved.syncs.dir = s.Double("dir", Need::kRequired);
  saved.sync_time_share = f.Double("sync_time_share", Need::kRequired);
  return saved;
}

model::SqliteCorrelation ReadCorrelation(const JsonFields& f, const CommitResult& r) {
  model::SqliteCorrelation c;
  c.available = f.Has("predicted_commit_ns");
  f.OptionalDouble("predicted_commit_ns", Need::kRequired);  // the contract's key, null or not
  f.OptionalDouble("explained_share", Need::kRequired);
  c.predicted_ns = f.Double("predicted_commit_ns");
  c.explained_share = f.Double("explained_share");
  c.residual_share = f.Double("residual_share");
  c.predicted_sync_ns = f.Double("predicted_sync_ns");
  c.measured_ns = f.Double("measured_commit_ns");
  c.missing = f.String("correlation_missing");
  // A basis this reader does not know reads as the probes': its figures are the probes' anyway.
  if (f.Has("correlation_basis")) {
    c.basis = model::ParseName<model::CorrelationBasis>(f.String("correlation_basis"))
                  .value_or(model::CorrelationBasis::kProbes);
  }
  if (f.Has("reference_scale")) c.reference_scale = f.Double("reference_scale");
  if (f.Has("flushes_per_commit")) {
    c.flushes_per_commit = f.Double("flushes_per_commit");
    c.probe_flushes_per_commit = f.Double("probe_flushes_per_commit", Need::kRequired);
    c.flush_scale = f.Double("flush_scale", Need::kRequired);
  }
  c.sqlite_sync_mean_ns = f.Double("sqlite_sync_mean_ns");
  c.probe_sync_mean_ns = f.Double("probe_sync_mean_ns");
  c.sync_ns = r.SyncNsPerCommit();
  c.non_sync_ns = std::max(0.0, r.MeanCommitNs() - c.sync_ns);
  JsonFields used = f.Object("probe_latency");
  for (const std::string& part : used.Keys()) {
    JsonFields p = used.Object(part.c_str());
    c.probe_label[part] = p.String("probe");
    c.probe_ns[part] = p.Double("mean_sync_ns");
    c.syncs_per_commit[part] = p.Double("syncs_per_commit");
  }
  return c;
}

}  // namespace

model::SqliteEntry ReadSqliteEntry(const JsonFields& f) {
  model::SqliteEntry e;
  CommitResult& r = e.result;
  r.config = ReadConfig(f);
  r.outcome = ReadOutcome(f);
  r.reason = f.String("reason");
  if (r.outcome != probes::Outcome::kOk) return e;  // the writer stops here too
  r.commits_per_sec = f.Double("commits_per_sec", Need::kRequired);
  r.rows_per_sec = f.Double("rows_per_sec");
  r.latency = ReadLatency(f.Object("latency_ns", Need::kRequired), {"p50", "p99"});
  r.journal_mode_actual = f.String("journal_mode_actual");
  r.sync_primitive = f.String("sync_primitive");
  r.dir_syncs_inferred = f.Bool("dir_syncs_inferred");
  r.repetitions = static_cast<std::uint32_t>(f.Uint("repetitions"));
  r.repetition_commits_per_sec = f.Doubles("repetition_commits_per_sec");
  f.Each("repetition_windows", Need::kOptional, [&](const JsonFields& w) {
    r.repetition_windows.push_back({.start_ns = NanosSinceStart(w.Double("start_s")),
                                    .end_ns = NanosSinceStart(w.Double("end_s")),
                                    .commits = w.Uint("commits"),
                                    .commit_ns = w.Uint("commit_ns"),
                                    .sync_calls = w.Uint("sync_calls"),
                                    .sync_ns = w.Uint("sync_ns")});
  });
  r.warmup_commits = f.Uint("warmup_commits");
  r.commits = f.Uint("commits");
  r.rows = f.Uint("rows");
  r.timed_ns = static_cast<std::uint64_t>(std::llround(f.Double("timed_seconds") * 1e9));
  r.verified_rows = f.Uint("verified_rows");
  std::string checksum = f.String("checksum");
  if (!checksum.empty()) {
    auto parsed =
        std::from_chars(checksum.data(), checksum.data() + checksum.size(), r.checksum, 16);
    if (parsed.ec != std::errc()) f.Fail("expected a hexadecimal number", "checksum");
  }
  if (!ReadCounts(f, r)) e.saved = ReadSaved(f);
  e.correlation = ReadCorrelation(f, r);
  if (f.Has("speedup_vs_delete_full")) e.speedup = f.Double("speedup_vs_delete_full");
  if (f.Has("repeats")) e.repeats = ReadSqliteRepeats(f.Object("repeats"));
  return e;
}

sqlite_bench::SqliteBuildInfo ReadSqliteBuild(const JsonFields& f) {
  sqlite_bench::SqliteBuildInfo info;
  if (!f.present()) return info;
  info.version = f.String("version");
  info.source_id = f.String("source_id");
  info.default_synchronous = f.String("default_synchronous");
  info.default_wal_synchronous = f.String("default_wal_synchronous");
  info.dirsync = f.Bool("dirsync", Need::kOptional, true);
  if (f.Has("default_wal_autocheckpoint")) {
    info.default_wal_autocheckpoint = static_cast<int>(f.Int("default_wal_autocheckpoint"));
  }
  info.compile_options = f.Strings("compile_options");
  return info;
}

}  // namespace durprobe::codec
