// The SQLite part of a target in the report: each configuration's commit result with its
// correlation against the raw probes measured on the same path.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/repeats.h"
#include "sqlite_bench/build_info.h"
#include "sqlite_bench/commit_result.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::model {

// Which latencies predicted a configuration's syncs (SqliteCorrelation::basis).
enum class CorrelationBasis {
  kProbes,             // the probes as measured
  kProbesAtReference,  // scaled by the reference probe: the device changed state in between
  kSqliteSyncTiming,   // SQLite's own timing of its syncs: the device moved while it ran
};
inline constexpr CorrelationBasis kLastCorrelationBasis = CorrelationBasis::kSqliteSyncTiming;
// "probes", "probes_at_reference", "sqlite_sync_timing" (the report's correlation_basis)
std::string_view NameOf(CorrelationBasis b);

// Commit time explained by the probes: predicted = sum over file kinds of syncs per commit x the
// probe latency (median of the sync call) of the primitive SQLite uses, with the append pattern
// for syncs after the file grew and overwrite for the rest, dir_fsync for directory syncs,
// + the measured non-sync time (mean commit minus mean time inside xSync).
struct SqliteCorrelation {
  bool available = false;
  // Which latencies predicted the syncs: the probes as measured, or the probes at the reference
  // (scaled by the reference probe's median near this configuration over its median near the
  // probes, because the device changed state in between; reference_scale is that ratio), or
  // SQLite's sync timing (the device moved while the configuration ran: SQLite's own timing of
  // its syncs, so predicted equals measured and explained is the sync share).
  CorrelationBasis basis = CorrelationBasis::kProbes;
  double reference_scale = 1.0;
  double sqlite_sync_mean_ns = 0.0;  // SQLite's own mean xSync (and directory sync) latency
  double probe_sync_mean_ns = 0.0;   // the probes' mean over the same syncs (predicted / syncs)
  std::string missing;               // the probes that were not measured, when unavailable
  double measured_ns = 0.0;          // median commit latency
  double sync_ns = 0.0;              // mean time inside xSync per commit
  double non_sync_ns = 0.0;          // mean commit - sync_ns
  double predicted_sync_ns = 0.0;
  double predicted_ns = 0.0;
  double explained_share = 0.0;  // predicted_sync_ns / measured_ns
  double residual_share = 0.0;   // (measured_ns - predicted_ns) / measured_ns
  // Per part ("wal append", "db overwrite", "dir", ...): syncs per commit, the probe's median
  // sync latency and which probe it was ("fdatasync append 4 KiB").
  std::map<std::string, double> syncs_per_commit;
  std::map<std::string, double> probe_ns;
  std::map<std::string, std::string> probe_label;
  // The device's flush requests per commit (probes/flush_tally.h), and the flushes the probes'
  // syncs made for as many syncs (each part's syncs x its probe's flushes per sync); unset where
  // either was not counted. Where the two differ (analysis::FlushesDiffer), the predicted sync time
  // follows the flushes: it is multiplied by flush_scale, their ratio (a sync that flushed nothing
  // costs little, one that flushed twice about twice); else flush_scale is 1.
  std::optional<double> flushes_per_commit;
  std::optional<double> probe_flushes_per_commit;
  double flush_scale = 1.0;
};

// Per commit syncs by kind as the JSON contract names them: total, db, journal, wal, dir
// (total = every sync call: xSync on any file plus the directory syncs).
struct SyncsPerCommit {
  double total = 0, db = 0, journal = 0, wal = 0, dir = 0;
};

// The contract's per-commit figures of a row read from a saved report that lacks the counts
// they derive from (an older durprobe wrote only these).
struct SavedPerCommit {
  SyncsPerCommit syncs;
  double sync_time_share = 0.0;
};

// What the configuration risks on power loss or an OS crash on this path: SQLite's documented
// guarantee, unless the path's findings void or qualify it (analysis/durability_risk.h
// decides; every format prints it as decided).
struct RowRisk {
  sqlite_bench::RiskLevel level = sqlite_bench::RiskLevel::kNone;
  // SQLite's guarantee (never kNotDurable)
  sqlite_bench::RiskLevel documented_level = sqlite_bench::RiskLevel::kNone;
  std::string summary;                // the console's phrase
  std::vector<std::string> findings;  // the codes that decided (voiding, else qualifying)
};

struct SqliteEntry {
  sqlite_bench::CommitResult result;
  SqliteCorrelation correlation;
  // Rows/s against DELETE/FULL single-row commits (reused statements when both styles ran),
  // when run; both the median of the repetitions' rates, the commits/s every format prints.
  std::optional<double> speedup;
  std::optional<SavedPerCommit> saved;  // set only by the reader, see codec/json_reader.h
  RowRisk risk;                         // from the target's findings: analysis::AssessRisks
  // With --repeat N >= 2: the figures over the repeats; commits_per_sec, the rates and the
  // latency's p50 and p99 of result are then their medians (model/repeats.h).
  std::optional<SqliteRepeats> repeats;
};

}  // namespace durprobe::model
