#include "render/console/watch_console.h"

#include <fmt/format.h>

#include <sstream>

#include "analysis/watch_files.h"
#include "analysis/watch_sqlite.h"
#include "text/line_width.h"
#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::report {
namespace {

std::string Who(const std::vector<int>& pids, const std::string& comm) {
  std::string who;
  if (!pids.empty()) who = fmt::format("pid {}", fmt::join(pids, ", "));
  if (!comm.empty()) who += (who.empty() ? "" : ", ") + fmt::format("comm {}", comm);
  return who.empty() ? "every process" : EscapeControlChars(who);
}

std::string BytesCell(double bytes) { return FormatBytes(static_cast<std::uint64_t>(bytes + 0.5)); }

void PrintFiles(const WatchReport& r, std::ostream& out) {
  Table table({{"pid", Align::kRight, 4},
               {"kind", Align::kLeft, 0},
               {"syncs", Align::kRight, 0},
               {"/s", Align::kRight, 3},
               {"p50", Align::kRight, 0},
               {"p99", Align::kRight, 2},
               {"max", Align::kRight, 1},
               {"B/sync", Align::kRight, 2},
               {"file", Align::kLeft, 0, true}},
              2);
  for (const WatchFile& f : r.files) {
    if (f.syncs == 0) continue;
    table.AddRow({std::to_string(f.pid), std::string(WatchFileKindPhrase(f.kind)),
                  CountText(f.syncs), FormatRate(f.syncs_per_second), NanosCell(f.latency.p50_ns),
                  PercentileCell(f.latency.p99_ns), NanosCell(f.latency.max_ns),
                  BytesCell(f.bytes_per_sync), f.path});
  }
  table.Print(out);
}

void PrintUnsynced(const WatchReport& r, std::ostream& out) {
  bool any = false;
  for (const WatchFile& f : r.files) {
    if (f.syncs != 0 || f.unsynced_bytes == 0) continue;
    if (!any) out << "\nWritten and never synced in the window\n";
    any = true;
    out << fmt::format("  {} {} ({}): {}\n", f.pid, EscapeControlChars(f.path),
                       WatchFileKindPhrase(f.kind), FormatBytes(f.unsynced_bytes));
  }
}

void PrintDevices(const WatchReport& r, std::ostream& out) {
  if (r.devices.empty()) return;
  out << "\nDevices (every flush they completed in the window, whoever asked)\n";
  for (const WatchDeviceRow& d : r.devices) {
    out << fmt::format("  {}: {} flushes, {} observed syncs on it",
                       EscapeControlChars(d.device.name), CountText(d.device.flushes),
                       CountText(d.syncs));
    if (d.flushes_per_sync) out << fmt::format(", {:.2f} flushes per sync", *d.flushes_per_sync);
    out << "\n";
  }
}

std::string_view CommitDurability(const WatchSqlite& s) {
  if (s.synchronous == SqliteSyncSeen::kUnknown) return "durability unknown";
  if (s.durable) return "each commit durable when it returns";
  if (s.synchronous == SqliteSyncSeen::kNormal) return "commits durable only at checkpoints";
  return "NOT durable";
}

void PrintSqlite(const WatchReport& r, std::ostream& out) {
  if (r.sqlite.empty()) return;
  out << "\nSQLite\n";
  for (const WatchSqlite& s : r.sqlite) {
    out << fmt::format("  {} (pid {}): journal_mode {}, synchronous {}: {}\n",
                       EscapeControlChars(s.database), s.pid, SqliteJournalSeenName(s.journal_mode),
                       SqliteSyncSeenName(s.synchronous), CommitDurability(s));
    if (s.transactions && s.transactions_per_second && s.syncs_per_transaction) {
      out << fmt::format("    {} transactions, {}/s, {:.1f} syncs each, {} written each\n",
                         CountText(*s.transactions), FormatRate(*s.transactions_per_second),
                         *s.syncs_per_transaction,
                         BytesCell(s.database_bytes_per_transaction.value_or(0)));
    }
    out << "    " << EscapeControlChars(s.evidence) << "\n";
    if (s.small_transactions) {
      out << "    Each transaction writes a page or two: one statement per transaction "
             "(autocommit)? Grouping them in one transaction syncs once for all.\n";
    }
  }
}

}  // namespace

std::string WatchBanner(const std::vector<int>& pids, const std::string& comm,
                        const std::string& path, double seconds) {
  std::string line = "durprobe watch: observing " + Who(pids, comm);
  if (!path.empty()) line += ", files under " + EscapeControlChars(path);
  line += seconds > 0 ? fmt::format(" for {}", FormatNanos(seconds * 1e9))
                      : std::string(" until interrupted (Ctrl-C)");
  return line;
}

void PrintWatch(const WatchReport& r, std::ostream& out) {
  out << fmt::format("Watched {}: {} syncs over {:.1f} s", Who(r.pids, r.comm), CountText(r.syncs),
                     r.seconds);
  if (!r.path.empty()) out << ", files under " << EscapeControlChars(r.path);
  out << "\n";
  if (r.lost > 0) {
    out << fmt::format("  {} records lost (the ring buffer was full): the counts are short\n",
                       CountText(r.lost));
  }
  for (const std::string& u : r.unobserved) out << "  not observed on this kernel: " << u << "\n";
  if (r.syncs > 0) {
    out << "\n";
    PrintFiles(r, out);
  }
  // The sentences below fit the stream's width (a terminal's; a pipe's is unlimited).
  std::ostringstream rest;
  PrintUnsynced(r, rest);
  PrintDevices(r, rest);
  PrintSqlite(r, rest);
  if (r.syncs > 0) rest << "\n" << kPercentileLegend << "\n";
  out << FitLines(rest.str(), LineWidth(out), 4);
}

}  // namespace durprobe::report
