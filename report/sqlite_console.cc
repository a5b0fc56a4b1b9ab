#include "report/sqlite_console.h"

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

void PrintSqliteTable(const std::vector<SqliteEntry>& entries,
                      const std::vector<sqlite_bench::CrashsimResult>& crashsim,
                      std::ostream& out) {
  auto crash_row = [&crashsim](const CommitResult& r) {
    return FindCrashsim(crashsim, r.config.journal, r.config.sync, r.config.rows_per_commit);
  };
  bool loss_columns = false;
  for (const SqliteEntry& e : entries) loss_columns = loss_columns || crash_row(e.result);
  fmt::print(out, kRow, "journal", "sync", "rows", "stmt", "commits/s", "rows/s", "us/commit",
             "p50", "p99", "syncs (db+j+wal+dir)", "sync%", "speedup", "predicted", "expl.");
  if (loss_columns) fmt::print(out, kLossCells, "crash: lost", "corrupt");
  fmt::print(out, "  power-loss risk\n");
  std::vector<std::string> notes;
  bool any_missing = false;
  for (const SqliteEntry& e : entries) {
    const CommitResult& r = e.result;
    std::string journal(sqlite_bench::NameOf(r.config.journal));
    std::string stmt(r.config.statement == sqlite_bench::StatementMode::kReused ? "reused" : "per_row");
    if (r.outcome != probes::Outcome::kOk) {
      fmt::print(out, "{:<8} {:<6} {:>5} {:<7} {}: {}\n", journal, ModeCell(r),
                 r.config.rows_per_commit, stmt, probes::NameOf(r.outcome), r.reason);
      continue;
    }
    const SqliteCorrelation& c = e.correlation;
    fmt::print(out, kRow, journal, ModeCell(r), r.config.rows_per_commit, stmt,
               FormatRate(r.commits_per_sec), FormatRate(r.rows_per_sec), Us(r.MeanCommitNs()),
               Us(double(r.latency.p50)), Us(double(r.latency.p99)), SyncCell(r),
               fmt::format("{:.0f}%", r.SyncTimeShare() * 100.0),
               e.speedup ? fmt::format("{:.2f}x", *e.speedup) : std::string("-"),
               c.available ? Us(c.predicted_ns) : std::string("-"),
               c.available ? fmt::format("{:.0f}%", c.explained_share * 100.0) : std::string("-"));
    if (loss_columns) {
      const sqlite_bench::CrashsimResult* crash = crash_row(r);
      fmt::print(out, kLossCells, crash ? LossCell(*crash) : "-",
                 crash ? CorruptCell(*crash) : "-");
    }
    fmt::print(out, "  {}\n", sqlite_bench::PowerLossRisk(r.config.journal, r.config.sync).summary);
    if (!c.available && !c.missing.empty()) any_missing = true;
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
  for (const std::string& n : notes) fmt::print(out, "  note: {}\n", n);
  if (any_missing) {
    fmt::print(out, "  note: predicted/expl. need the fdatasync (or fsync) overwrite and append "
                    "probes and dir_fsync create on this path\n");
  }
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

}  // namespace durprobe::report
