#include "render/console/sqlite_workloads_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "model/percentiles.h"
#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

using namespace sqlite_bench;

std::string Ns(std::uint64_t ns) { return text::FormatNanos(static_cast<double>(ns)); }

// WAL sizes are rarely round: "861 KiB", "5.3 MiB".
std::string Size(std::uint64_t bytes) {
  if (bytes >= (1u << 20)) return fmt::format("{:.1f} MiB", double(bytes) / double(1u << 20));
  if (bytes >= 1024) return fmt::format("{:.0f} KiB", double(bytes) / 1024.0);
  return fmt::format("{} B", bytes);
}

// "error: ..." / "unsupported: ..." as a row for an entry that did not produce numbers.
bool AddedFailure(const WorkloadStatus& s, std::vector<std::string> leading, text::Table& table) {
  if (s.outcome == probes::Outcome::kOk) return false;
  table.AddSpanRow(std::move(leading), fmt::format("{}: {}", probes::NameOf(s.outcome), s.reason));
  return true;
}

std::string P99Cell(const probes::LatencySummary& l, bool& any_short) {
  any_short = any_short || !model::P99(l);
  return text::PercentileCell(model::P99(l));
}

void PrintRead(const std::vector<ReadResult>& rows, std::ostream& out) {
  std::uint64_t table_rows = rows.empty() ? 0 : rows.front().rows;
  fmt::print(out, "\nSQLite reads: primary-key lookups on {} rows, one variant a row:\n",
             text::FormatRate(double(table_rows)));
  text::Table table({{"variant", text::Align::kLeft},
                     {"database", text::Align::kLeft},
                     {"journal", text::Align::kLeft},
                     {"cache_size"},
                     {"mmap_size"},
                     {"queries"},
                     {"queries/s"},
                     {"p50"},
                     {"p99"}});
  const ReadResult *file = nullptr, *memory = nullptr;
  std::vector<std::string> notes;
  bool any_short = false;
  for (const ReadResult& r : rows) {
    if (AddedFailure(r, {r.variant}, table)) continue;
    table.AddRow({r.variant, r.database, r.journal_mode, fmt::format("{}", r.cache_size),
                  fmt::format("{}", r.mmap_size), fmt::format("{}", r.queries),
                  text::FormatRate(r.queries_per_sec), Ns(r.latency.p50),
                  P99Cell(r.latency, any_short)});
    if (r.variant == "defaults") file = &r;
    if (r.variant == "memory") memory = &r;
    if (!r.cold_note.empty()) notes.push_back("cold: " + r.cold_note);
  }
  table.Print(out);
  for (const std::string& n : notes) fmt::print(out, "  note: {}\n", text::EscapeControlChars(n));
  if (any_short) fmt::print(out, "  {}\n", text::kPercentileLegend);
  if (file && memory && memory->queries_per_sec > 0) {
    fmt::print(out,
               "  the file database answers at {:.0f}% of :memory:'s rate: reads come from "
               "SQLite's and the OS's page caches, not the device\n",
               100.0 * file->queries_per_sec / memory->queries_per_sec);
  }
  fmt::print(out,
             "  cache_size < 0 is KiB (-2000: SQLite's 2 MB default); latency is one "
             "lookup (bind, step, read the value), clock reads included\n");
}

void PrintConnect(const std::vector<ConnectResult>& rows, std::ostream& out) {
  fmt::print(out, "\nSQLite connection cost: open + one lookup + close vs a kept connection:\n");
  text::Table table({{"mode", text::Align::kLeft}, {"ops"}, {"mean"}, {"p50"}, {"p99"}});
  double reopen = 0, reuse = 0;
  bool any_short = false;
  for (const ConnectResult& r : rows) {
    if (AddedFailure(r, {r.mode}, table)) continue;
    table.AddRow({r.mode, fmt::format("{}", r.ops), text::FormatNanos(r.us_per_op * 1e3),
                  Ns(r.latency.p50), P99Cell(r.latency, any_short)});
    (r.mode == "reopen" ? reopen : reuse) = r.us_per_op;
  }
  table.Print(out);
  if (any_short) fmt::print(out, "  {}\n", text::kPercentileLegend);
  if (reopen > 0 && reuse > 0) {
    fmt::print(out,
               "  opening per request adds {} ({} a lookup on a kept connection); another "
               "connection kept the WAL database open meanwhile\n",
               text::FormatNanos((reopen - reuse) * 1e3), text::FormatRatio(reopen / reuse));
  }
}

std::string LockCell(const LockResult* r) {
  if (r == nullptr) return "-";
  if (r->outcome != probes::Outcome::kOk) return std::string(probes::NameOf(r->outcome));
  if (r->lock_outcome == "ok") return "ok";
  return fmt::format("busy at {}", r->busy_at);
}

void PrintLocks(const std::vector<LockResult>& rows, std::ostream& out) {
  fmt::print(out, "\nSQLite locks, busy_timeout 0 (no waiting): what the second party gets\n");
  text::Table table({{"journal", text::Align::kLeft},
                     {"case", text::Align::kLeft},
                     {"threads", text::Align::kLeft},
                     {"processes", text::Align::kLeft}});
  std::string message;
  for (const LockResult& r : rows) {
    if (r.via != "threads") continue;
    const LockResult* other = nullptr;
    for (const LockResult& p : rows) {
      if (p.via == "processes" && p.journal_mode == r.journal_mode && p.lock_case == r.lock_case) {
        other = &p;
      }
    }
    table.AddRow({r.journal_mode, r.lock_case, LockCell(&r), LockCell(other)});
    if (message.empty() && r.lock_outcome == "busy") message = r.message;
  }
  table.Print(out);
  for (const LockResult& r : rows) {
    if (r.outcome != probes::Outcome::kOk) {
      fmt::print(out, "  {} {} via {}: {}\n", text::EscapeControlChars(r.journal_mode),
                 text::EscapeControlChars(r.lock_case), text::EscapeControlChars(r.via),
                 text::EscapeControlChars(r.reason));
    }
  }
  fmt::print(out,
             "  busy = SQLITE_BUSY (\"{}\"); writer_vs_writer: a second BEGIN IMMEDIATE "
             "while a write transaction is open;\n  reader_vs_commit: a writer commits while "
             "a reader is inside BEGIN ... SELECT\n",
             message.empty() ? "database is locked" : message);
}

void PrintConcurrency(const std::vector<ConcurrencyResult>& rows, std::ostream& out) {
  if (rows.empty()) return;
  fmt::print(out,
             "\nSQLite concurrent mixed load: {:.0f}% writes (BEGIN IMMEDIATE + INSERT), "
             "the rest SELECT COUNT(*):\n",
             rows.front().write_share * 100.0);
  text::Table table({{"settings", text::Align::kLeft},
                     {"via", text::Align::kLeft},
                     {"workers"},
                     {"ops"},
                     {"ok"},
                     {"ok ops/s"},
                     {"busy (r+w)"},
                     {"write p50"},
                     {"write p99"},
                     {"read p50"}});
  std::vector<std::string> notes;
  bool any_short = false;
  for (const ConcurrencyResult& r : rows) {
    if (AddedFailure(r, {r.settings, r.via}, table)) continue;
    table.AddRow({r.settings, r.via, fmt::format("{}", r.workers), fmt::format("{}", r.ops),
                  fmt::format("{}", r.reads + r.writes), text::FormatRate(r.ops_per_sec),
                  fmt::format("{} ({}+{})", r.busy_errors, r.busy_reads, r.busy_writes),
                  r.writes ? Ns(r.write_latency.p50) : "-",
                  r.writes ? P99Cell(r.write_latency, any_short) : "-",
                  r.reads ? Ns(r.read_latency.p50) : "-"});
    if (r.deadline_hit) {
      notes.push_back(
          fmt::format("{} {}: the time budget ended the run before {} operations per "
                      "worker",
                      r.settings, r.via, r.ops_per_worker));
    }
  }
  table.Print(out);
  for (const std::string& n : notes) fmt::print(out, "  note: {}\n", text::EscapeControlChars(n));
  if (any_short) fmt::print(out, "  {}\n", text::kPercentileLegend);
  const ConcurrencyResult& f = rows.front();
  fmt::print(out,
             "  default: {} / {} / busy_timeout 0; wal_normal_busy_timeout: WAL / NORMAL / "
             "busy_timeout {} ms. Busy operations fail and are not retried;\n  the table holds "
             "exactly the committed writes afterwards (verified)\n",
             f.journal_mode, f.synchronous, rows.back().busy_timeout_ms);
}

void PrintWalGrowth(const WalGrowthResult& r, std::ostream& out) {
  fmt::print(out, "\nSQLite WAL growth while a reader holds a snapshot:\n");
  if (r.outcome != probes::Outcome::kOk) {
    fmt::print(out, "wal_growth  {}: {}\n", probes::NameOf(r.outcome), r.reason);
    return;
  }
  text::Table table({{"t"},
                     {"commits"},
                     {"WAL size"},
                     {"wal_checkpoint(PASSIVE) busy, log, checkpointed", text::Align::kLeft}});
  for (const WalSample& s : r.series) {
    table.AddRow(
        {text::FormatNanos(s.t_ms * 1e6), fmt::format("{}", s.commits), Size(s.wal_bytes),
         fmt::format("{}, {}, {}", s.passive.busy, s.passive.log, s.passive.checkpointed)});
  }
  table.Print(out);
  fmt::print(out,
             "  the reader saw {} rows before and after ({}); autocheckpoint at {} frames; "
             "max WAL {}\n",
             r.reader_rows, r.reader_snapshot_stable ? "its snapshot held" : "its snapshot MOVED",
             r.wal_autocheckpoint, Size(r.max_wal_bytes));
  fmt::print(out,
             "  reader ended: PASSIVE {}, {}, {} -> WAL still {}; TRUNCATE {}, {}, {} -> "
             "WAL {}; {} rows verified\n",
             r.passive_after_reader.busy, r.passive_after_reader.log,
             r.passive_after_reader.checkpointed, Size(r.wal_bytes_after_passive), r.truncate.busy,
             r.truncate.log, r.truncate.checkpointed, Size(r.wal_bytes_after_truncate),
             r.verified_rows);
}

}  // namespace

void PrintSqliteWorkloads(const WorkloadResults& results, std::ostream& out) {
  if (!results.read.empty()) PrintRead(results.read, out);
  if (!results.connect.empty()) PrintConnect(results.connect, out);
  if (!results.locks.empty()) PrintLocks(results.locks, out);
  PrintConcurrency(results.concurrency, out);
  for (const WalGrowthResult& r : results.wal_growth) PrintWalGrowth(r, out);
}

}  // namespace durprobe::render::console
