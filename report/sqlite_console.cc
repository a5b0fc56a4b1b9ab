#include "report/sqlite_console.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "report/crashsim_console.h"
#include "report/sqlite_correlation.h"
#include "report/units.h"

namespace durprobe::report {
namespace {

using sqlite_bench::CommitResult;

constexpr const char* kRow =
    "{:<8} {:<6} {:>5} {:<7} {:>9} {:>10} {:>9} {:>9} {:>9}  {:<17} {:>5} {:>8} {:>9} {:>6}";
// The crashsim columns, when crashsim ran on the same path: measured loss next to the speed.
constexpr const char* kLossCells = "  {:>18} {:>9}";

std::string Us(double ns) { return FormatNanos(ns); }

std::string SyncCell(const CommitResult& r) {
  SyncsPerCommit s = SyncsOf(r);
  auto n = [](double v) {
    if (v == static_cast<double>(static_cast<long long>(v))) return fmt::format("{:.0f}", v);
    return v < 0.1 ? fmt::format("{:.3f}", v) : fmt::format("{:.2f}", v);
  };
  return fmt::format("{} ({}+{}+{}+{})", n(s.total), n(s.db), n(s.journal), n(s.wal), n(s.dir));
}

std::string ModeCell(const CommitResult& r) {
  std::string mode(sqlite_bench::NameOf(r.config.sync));
  if (r.config.fullfsync.value_or(false)) mode += "+FF";
  return mode;
}

}  // namespace

void PrintSqliteHeader(bool loss_columns, std::ostream& out) {
  fmt::print(out, kRow, "journal", "sync", "rows", "stmt", "commits/s", "rows/s", "us/commit",
             "p50", "p99", "syncs (db+j+wal+dir)", "sync%", "speedup", "predicted", "expl.");
  if (loss_columns) fmt::print(out, kLossCells, "crash: lost", "corrupt");
  fmt::print(out, "  power-loss risk\n");
}

void PrintSqliteRow(const SqliteEntry& e, const std::vector<sqlite_bench::CrashsimResult>* crashsim,
                    std::vector<std::string>& notes, std::ostream& out) {
  const CommitResult& r = e.result;
  std::string journal(sqlite_bench::NameOf(r.config.journal));
  std::string stmt(r.config.statement == sqlite_bench::StatementMode::kReused ? "reused"
                                                                              : "per_row");
  if (r.outcome != probes::Outcome::kOk) {
    fmt::print(out, "{:<8} {:<6} {:>5} {:<7} {}: {}\n", journal, ModeCell(r),
               r.config.rows_per_commit, stmt, probes::NameOf(r.outcome), r.reason);
    return;
  }
  const SqliteCorrelation& c = e.correlation;
  fmt::print(out, kRow, journal, ModeCell(r), r.config.rows_per_commit, stmt,
             FormatRate(r.commits_per_sec), FormatRate(r.rows_per_sec), Us(r.MeanCommitNs()),
             Us(double(r.latency.p50)), Us(double(r.latency.p99)), SyncCell(r),
             fmt::format("{:.0f}%", r.SyncTimeShare() * 100.0),
             e.speedup ? fmt::format("{:.2f}x", *e.speedup) : std::string("-"),
             c.available ? Us(c.predicted_ns) : std::string("-"),
             c.available ? fmt::format("{:.0f}%", c.explained_share * 100.0) : std::string("-"));
  if (crashsim != nullptr) {
    const sqlite_bench::CrashsimResult* crash =
        FindCrashsim(*crashsim, r.config.journal, r.config.sync, r.config.rows_per_commit);
    fmt::print(out, kLossCells, crash ? LossCell(*crash) : "-", crash ? CorruptCell(*crash) : "-");
  }
  fmt::print(out, "  {}\n", sqlite_bench::PowerLossRisk(r.config.journal, r.config.sync).summary);
  if (!c.available && !c.missing.empty()) {
    std::string missing =
        "predicted/expl. need the fdatasync (or fsync) overwrite and append probes and dir_fsync "
        "create on this path";
    if (std::find(notes.begin(), notes.end(), missing) == notes.end()) notes.push_back(missing);
  }
  if (r.checkpoints.count > 0) {
    notes.push_back(fmt::format(
        "{}/{} x{}: {} WAL checkpoint(s) in {} commits, {:.1f} syncs and {} each, {} per commit "
        "spread out (left out of the per-commit figures)",
        journal, ModeCell(r), r.config.rows_per_commit, r.checkpoints.count, r.commits,
        double(r.checkpoints.counts.sync_calls()) / double(r.checkpoints.count),
        Us(double(r.checkpoints.ns) / double(r.checkpoints.count)),
        Us(r.PerCommit(r.checkpoints.ns))));
  }
}

void PrintSqliteNotes(const std::vector<std::string>& notes, bool loss_columns,
                      std::ostream& out) {
  for (const std::string& n : notes) fmt::print(out, "  note: {}\n", n);
  fmt::print(out,
             "  us/commit: mean of timed transactions; syncs: sync calls per commit (dir: directory "
             "syncs inside SQLite's unix VFS);\n"
             "  predicted: syncs x probe mean sync latency + measured non-sync time, against "
             "us/commit; expl.: share of the mean commit the probes' syncs explain;\n"
             "  risk on power loss or OS crash as SQLite documents it "
             "(https://www.sqlite.org/pragma.html#pragma_synchronous, docs/sqlite.md)\n");
  if (loss_columns) {
    fmt::print(out, "  crash: lost: crashsim trials that lost an acknowledged commit / trials, and "
                    "the most lost; corrupt: corrupt images / trials (docs/durability.md)\n");
  }
}

void PrintSqliteTable(const std::vector<SqliteEntry>& entries,
                      const std::vector<sqlite_bench::CrashsimResult>& crashsim,
                      std::ostream& out) {
  bool loss_columns = false;
  for (const SqliteEntry& e : entries) {
    const CommitResult& r = e.result;
    loss_columns = loss_columns ||
                   FindCrashsim(crashsim, r.config.journal, r.config.sync,
                                r.config.rows_per_commit) != nullptr;
  }
  PrintSqliteHeader(loss_columns, out);
  std::vector<std::string> notes;
  for (const SqliteEntry& e : entries) {
    PrintSqliteRow(e, loss_columns ? &crashsim : nullptr, notes, out);
  }
  PrintSqliteNotes(notes, loss_columns, out);
}

}  // namespace durprobe::report
