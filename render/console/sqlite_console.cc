#include "render/console/sqlite_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

#include "analysis/device_flushes.h"
#include "analysis/drift.h"
#include "analysis/sqlite_correlation.h"
#include "model/percentiles.h"
#include "render/console/crashsim_console.h"
#include "render/console/repeat_cells.h"
#include "render/flush_text.h"
#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

using sqlite_bench::CommitResult;

std::string Us(double ns) { return text::FormatNanos(ns); }

std::string SyncCount(double v) {
  if (v == static_cast<double>(static_cast<long long>(v))) return fmt::format("{:.0f}", v);
  return v < 0.1 ? fmt::format("{:.3f}", v) : fmt::format("{:.2f}", v);
}

// Syncs per commit, the table's most telling column after the rate, and apart from it their
// split by file, which a narrow terminal leaves out first.
std::string SyncCell(const CommitResult& r) { return SyncCount(analysis::SyncsOf(r).total); }

std::string SyncSplitCell(const CommitResult& r) {
  model::SyncsPerCommit s = analysis::SyncsOf(r);
  return fmt::format("{}+{}+{}+{}", SyncCount(s.db), SyncCount(s.journal), SyncCount(s.wal),
                     SyncCount(s.dir));
}

std::string ModeCell(const CommitResult& r) {
  std::string mode(sqlite_bench::NameOf(r.config.sync));
  if (r.config.fullfsync.value_or(false)) mode += "+FF";
  return mode;
}

}  // namespace

text::Table SqliteTable(bool loss_columns, bool flushes) {
  // On a narrow terminal the explanation columns go first, then the latencies; the
  // configuration, its rate, its syncs per commit, its speedup and its risk stay.
  std::vector<text::Column> columns = {{"journal", text::Align::kLeft},
                                       {"sync", text::Align::kLeft},
                                       {"rows"},
                                       {"stmt", text::Align::kLeft, 6},
                                       {"commits/s"},
                                       {"rows/s", text::Align::kRight, 7},
                                       {"commit", text::Align::kRight, 5},
                                       {"p50", text::Align::kRight, 4},
                                       {"p99", text::Align::kRight, 3},
                                       {"syncs", text::Align::kRight, 2},
                                       {"db+j+wal+dir", text::Align::kLeft, 6}};
  if (flushes) columns.push_back({"flush/c", text::Align::kRight, 7});
  columns.insert(columns.end(), {{"sync%", text::Align::kRight, 6},
                                 {"speedup", text::Align::kRight, 1},
                                 {"predicted", text::Align::kRight, 8},
                                 {"explained", text::Align::kRight, 8}});
  if (loss_columns) {
    columns.push_back({"crash: lost", text::Align::kRight, 2});
    columns.push_back({"corrupt", text::Align::kRight, 2});
  }
  columns.push_back({"power-loss risk", text::Align::kLeft, 0, /*wraps=*/true});
  return text::Table(columns);
}

void AddSqliteRow(text::Table& table, const model::SqliteEntry& e,
                  const std::vector<sqlite_bench::CrashsimResult>* crashsim, TableNotes& notes,
                  bool flushes) {
  const CommitResult& r = e.result;
  std::string journal(sqlite_bench::NameOf(r.config.journal));
  std::string stmt(r.config.statement == sqlite_bench::StatementMode::kReused ? "reused"
                                                                              : "per_row");
  std::string rows = fmt::format("{}", r.config.rows_per_commit);
  if (r.outcome != probes::Outcome::kOk || r.commits == 0) {
    table.AddSpanRow({journal, ModeCell(r), rows, stmt},
                     fmt::format("{}: {}", probes::NameOf(r.outcome), r.reason));
    return;
  }
  const model::SqliteCorrelation& c = e.correlation;
  // commits/s is the median of the repetitions' rates, as in every other format and the check
  // rules; commit is the mean over every timed commit (what the prediction explains).
  double mean_ns = r.MeanCommitNs();
  const model::SqliteRepeats* rep = e.repeats ? &*e.repeats : nullptr;
  if (rep != nullptr && Ranged(rep->commits_per_sec)) notes.Add(RepeatsNote());
  notes.any_short = notes.any_short || !model::P99(r.latency);
  std::vector<std::string> cells = {
      journal,
      ModeCell(r),
      rows,
      stmt,
      rep && Ranged(rep->commits_per_sec) ? RateRangeCell(rep->commits_per_sec)
                                          : text::FormatRate(r.commits_per_sec),
      text::FormatRate(r.rows_per_sec),
      Us(mean_ns),
      rep && Ranged(rep->p50_ns) ? NanosRangeCell(rep->p50_ns) : text::NanosCell(r.latency.p50),
      rep && Ranged(rep->p99_ns) && model::P99(r.latency)
          ? NanosRangeCell(rep->p99_ns)
          : text::PercentileCell(model::P99(r.latency)),
      SyncCell(r),
      SyncSplitCell(r)};
  if (flushes) cells.push_back(FlushPerOpCell(r.device_flushes));
  if (flushes && analysis::FlushCountInNoise(r.device_flushes)) notes.Add(kFlushNoiseNote);
  cells.insert(cells.end(), {fmt::format("{:.0f}%", r.SyncTimeShare() * 100.0),
                             e.speedup ? text::FormatRatio(*e.speedup) : std::string("-"),
                             c.available ? Us(c.predicted_ns) : std::string("-"),
                             c.available ? fmt::format("{:.0f}%", c.explained_share * 100.0)
                                         : std::string("-")});
  notes.any_over_explained = notes.any_over_explained || (c.available && c.explained_share > 1.0);
  notes.statements.insert(stmt);
  if (crashsim != nullptr) {
    const sqlite_bench::CrashsimResult* crash =
        FindCrashsim(*crashsim, r.config.journal, r.config.sync, r.config.rows_per_commit);
    cells.push_back(crash ? LossCell(*crash) : "-");
    cells.push_back(crash ? CorruptCell(*crash) : "-");
  }
  cells.push_back(e.risk.summary);
  table.AddRow(std::move(cells));
  if (!c.available && !c.missing.empty()) notes.any_missing = true;
  bool apart = analysis::Drifted(c.sqlite_sync_mean_ns, c.probe_sync_mean_ns);
  // A configuration without syncs has no sync timing to compare.
  if (c.available && analysis::SyncsOf(r).total > 0 &&
      (c.basis != model::CorrelationBasis::kProbes || apart)) {
    std::string basis =
        c.basis == model::CorrelationBasis::kSqliteSyncTiming
            ? "predicted from SQLite's own sync timing: the device changed state while it ran"
        : c.basis == model::CorrelationBasis::kProbesAtReference
            ? fmt::format("predicted from the probes scaled {} to the reference probe near it",
                          text::FormatRatio(c.reference_scale))
            : std::string("predicted from the probes");
    notes.AddDetail("on how its prediction was made",
                    fmt::format("{}/{} x{}: {}; a sync took {} in SQLite, {} in the probes{}",
                                journal, ModeCell(r), r.config.rows_per_commit, basis,
                                Us(c.sqlite_sync_mean_ns), Us(c.probe_sync_mean_ns),
                                c.basis != model::CorrelationBasis::kProbes && notes.cite_drift
                                    ? " (latency_drift)"
                                    : ""));
  }
  if (c.available && c.flush_scale != 1.0 && c.flushes_per_commit && c.probe_flushes_per_commit) {
    notes.Add(
        fmt::format("{}/{} x{}: {:.2f} flushes a commit where the probes' syncs made {:.2f} "
                    "for as many syncs: predicted per flush ({} the probes' sync time)",
                    journal, ModeCell(r), r.config.rows_per_commit, *c.flushes_per_commit,
                    *c.probe_flushes_per_commit, text::FormatRatio(c.flush_scale)));
  }
  if (r.checkpoints.count > 0) {
    notes.AddDetail(
        "on WAL checkpoints",
        fmt::format("{}/{} x{}: {} WAL checkpoint(s) in {} commits, {:.1f} syncs and {} each, {} "
                    "per commit "
                    "spread out (left out of the per-commit figures)",
                    journal, ModeCell(r), r.config.rows_per_commit, r.checkpoints.count, r.commits,
                    double(r.checkpoints.counts.sync_calls()) / double(r.checkpoints.count),
                    Us(double(r.checkpoints.ns) / double(r.checkpoints.count)),
                    Us(r.PerCommit(r.checkpoints.ns))));
  }
}

void PrintSqliteNotes(const TableNotes& notes, bool loss_columns, std::ostream& out) {
  PrintNoteLines(notes, out);
  if (notes.any_missing) {
    fmt::print(out,
               "  note: predicted/explained need the fdatasync (or fsync) overwrite and append "
               "probes and dir_fsync create on this path\n");
  }
  fmt::print(out,
             "  commits/s: the median of the repetitions' rates (as in every format and check); "
             "rows/s = commits/s x rows;\n  commit: mean time of a timed transaction (all "
             "repetitions); speedup: rows/s against DELETE/FULL x1{};\n"
             "  p50, p99: of single transactions; syncs: sync calls per commit, by file as "
             "db+j+wal+dir (main database, rollback journal, WAL, directory syncs inside "
             "SQLite's unix VFS);\n"
             "  predicted: syncs x probe mean sync latency + measured non-sync time, against "
             "commit; explained: share of commit the probes' syncs explain;\n"
             "  risk on power loss or OS crash as SQLite documents it "
             "(https://www.sqlite.org/pragma.html#pragma_synchronous), as far as this path's "
             "durability verdict lets syncs reach stable storage (docs/sqlite.md)\n",
             notes.statements.size() > 1 ? " with reused statements" : "");
  if (notes.any_over_explained) {
    fmt::print(
        out,
        "  explained above 100%: the probes' syncs alone take longer than the commit did, so "
        "SQLite's syncs were cheaper than the probes' (smaller, or the device moved)\n");
  }
  if (loss_columns) {
    fmt::print(out,
               "  crash: lost: crashsim trials that lost an acknowledged commit / trials, and "
               "the most lost; corrupt: corrupt images / trials (docs/durability.md)\n");
  }
  if (notes.any_short) fmt::print(out, "  {}\n", text::kPercentileLegend);
}

void PrintSqliteTable(const std::vector<model::SqliteEntry>& entries,
                      const std::vector<sqlite_bench::CrashsimResult>& crashsim, std::ostream& out,
                      bool cite_drift) {
  bool loss_columns = false;
  for (const model::SqliteEntry& e : entries) {
    const CommitResult& r = e.result;
    loss_columns = loss_columns || FindCrashsim(crashsim, r.config.journal, r.config.sync,
                                                r.config.rows_per_commit) != nullptr;
  }
  const bool flushes = std::any_of(entries.begin(), entries.end(), [](const model::SqliteEntry& e) {
    return e.result.device_flushes.counted;
  });
  text::Table table = SqliteTable(loss_columns, flushes);
  TableNotes notes;
  notes.cite_drift = cite_drift;
  for (const model::SqliteEntry& e : entries) {
    AddSqliteRow(table, e, loss_columns ? &crashsim : nullptr, notes, flushes);
  }
  if (flushes) {
    notes.Add(
        "flush/c: flush requests the device completed per commit, less the background "
        "(beside syncs: fewer flushes than syncs means syncs were merged or dropped below "
        "SQLite)");
  }
  table.Print(out);
  PrintSqliteNotes(notes, loss_columns, out);
}

}  // namespace durprobe::render::console
