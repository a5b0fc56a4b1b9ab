#include "render/console/watch_console.h"

#include <fmt/format.h>

#include <sstream>

#include "analysis/watch_files.h"
#include "analysis/watch_sqlite.h"
#include "text/line_width.h"
#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

std::string Who(const std::vector<int>& pids, const std::string& comm) {
  std::string who;
  if (!pids.empty()) who = fmt::format("pid {}", fmt::join(pids, ", "));
  if (!comm.empty()) who += (who.empty() ? "" : ", ") + fmt::format("comm {}", comm);
  return who.empty() ? "every process" : text::EscapeControlChars(who);
}

std::string BytesCell(double bytes) {
  return text::FormatBytes(static_cast<std::uint64_t>(bytes + 0.5));
}

void PrintFiles(const model::WatchReport& r, std::ostream& out) {
  text::Table table({{"pid", text::Align::kRight, 4},
                     {"kind", text::Align::kLeft, 0},
                     {"syncs", text::Align::kRight, 0},
                     {"/s", text::Align::kRight, 3},
                     {"p50", text::Align::kRight, 0},
                     {"p99", text::Align::kRight, 2},
                     {"max", text::Align::kRight, 1},
                     {"B/sync", text::Align::kRight, 2},
                     {"file", text::Align::kLeft, 0, true}},
                    2);
  for (const model::WatchFile& f : r.files) {
    if (f.syncs == 0) continue;
    table.AddRow({std::to_string(f.pid), std::string(analysis::WatchFileKindPhrase(f.kind)),
                  text::CountText(f.syncs), text::FormatRate(f.syncs_per_second),
                  text::NanosCell(f.latency.p50_ns), text::PercentileCell(f.latency.p99_ns),
                  text::NanosCell(f.latency.max_ns), BytesCell(f.bytes_per_sync), f.path});
  }
  table.Print(out);
}

void PrintUnsynced(const model::WatchReport& r, std::ostream& out) {
  bool any = false;
  for (const model::WatchFile& f : r.files) {
    if (f.syncs != 0 || f.unsynced_bytes == 0) continue;
    if (!any) out << "\nWritten and never synced in the window\n";
    any = true;
    out << fmt::format("  {} {} ({}): {}\n", f.pid, text::EscapeControlChars(f.path),
                       analysis::WatchFileKindPhrase(f.kind), text::FormatBytes(f.unsynced_bytes));
  }
}

void PrintDevices(const model::WatchReport& r, std::ostream& out) {
  if (r.devices.empty()) return;
  out << "\nDevices (every flush they completed in the window, whoever asked)\n";
  for (const model::WatchDeviceRow& d : r.devices) {
    out << fmt::format("  {}: {} flushes, {} observed syncs on it",
                       text::EscapeControlChars(d.device.name), text::CountText(d.device.flushes),
                       text::CountText(d.syncs));
    if (d.flushes_per_sync) out << fmt::format(", {:.2f} flushes per sync", *d.flushes_per_sync);
    out << "\n";
  }
}

std::string_view CommitDurability(const model::WatchSqlite& s) {
  if (s.synchronous == model::SqliteSyncSeen::kUnknown) return "durability unknown";
  if (s.durable) return "each commit durable when it returns";
  if (s.synchronous == model::SqliteSyncSeen::kNormal) return "commits durable only at checkpoints";
  return "NOT durable";
}

void PrintSqlite(const model::WatchReport& r, std::ostream& out) {
  if (r.sqlite.empty()) return;
  out << "\nSQLite\n";
  for (const model::WatchSqlite& s : r.sqlite) {
    out << fmt::format("  {} (pid {}): journal_mode {}, synchronous {}: {}\n",
                       text::EscapeControlChars(s.database), s.pid,
                       analysis::SqliteJournalSeenName(s.journal_mode),
                       analysis::SqliteSyncSeenName(s.synchronous), CommitDurability(s));
    if (s.transactions && s.transactions_per_second && s.syncs_per_transaction) {
      out << fmt::format("    {} transactions, {}/s, {:.1f} syncs each, {} written each\n",
                         text::CountText(*s.transactions),
                         text::FormatRate(*s.transactions_per_second), *s.syncs_per_transaction,
                         BytesCell(s.database_bytes_per_transaction.value_or(0)));
    }
    out << "    " << text::EscapeControlChars(s.evidence) << "\n";
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
  if (!path.empty()) line += ", files under " + text::EscapeControlChars(path);
  line += seconds > 0 ? fmt::format(" for {}", text::FormatNanos(seconds * 1e9))
                      : std::string(" until interrupted (Ctrl-C)");
  return line;
}

void PrintWatch(const model::WatchReport& r, std::ostream& out) {
  out << fmt::format("Watched {}: {} syncs over {:.1f} s", Who(r.pids, r.comm),
                     text::CountText(r.syncs), r.seconds);
  if (!r.path.empty()) out << ", files under " << text::EscapeControlChars(r.path);
  out << "\n";
  if (r.lost > 0) {
    out << fmt::format("  {} records lost (the ring buffer was full): the counts are short\n",
                       text::CountText(r.lost));
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
  if (r.syncs > 0) rest << "\n" << text::kPercentileLegend << "\n";
  out << text::FitLines(rest.str(), text::LineWidth(out), 4);
}

}  // namespace durprobe::render::console
