#include "render/console/fsync_errors_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <map>

#include "analysis/fsync_error_meaning.h"
#include "render/fsync_error_rows.h"
#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

void PrintOne(const probes::FsyncErrorsResult& r, std::ostream& out) {
  fmt::print(out,
             "\nFailed writes on the crash device ({}{}, kernel {}): what each sync returned, "
             "what the page held\n",
             text::EscapeControlChars(r.fs),
             r.fs_options.empty() ? "" : " -o " + text::EscapeControlChars(r.fs_options),
             text::EscapeControlChars(r.kernel));
  // On a narrow terminal the columns a reader needs least go first (text/table.h); the
  // meaning wraps under itself.
  const std::map<std::string, int> drop = {{"remount", 6}, {"write", 5},   {"2nd fd", 4},
                                           {"size", 3},    {"evicted", 2}, {"cached", 1}};
  std::vector<text::Column> columns;
  for (const std::string& head : FsyncErrorHeads()) {
    auto rank = drop.find(head);
    columns.push_back({head, text::Align::kLeft, rank == drop.end() ? 0 : rank->second});
  }
  columns.back().wraps = true;
  text::Table table(std::move(columns));
  std::vector<std::string> notes;
  for (const probes::FsyncErrorOutcome& o : r.outcomes) {
    std::string fault = fmt::format("{} {}", probes::NameOf(o.fault), o.sync);
    std::vector<std::string> cells = FsyncErrorCells(o);
    if (o.status != probes::Outcome::kOk) {
      table.AddSpanRow({cells[0], cells[1]}, cells[2]);
      continue;
    }
    table.AddRow(std::move(cells));
    if (!o.later_sync.empty()) {
      notes.push_back(fmt::format("{}: once the device wrote again, it returned {}", fault,
                                  o.later_sync));
    }
    if (!o.remount_ok) notes.push_back(fault + ": the next mount failed: " + o.remount_error);
    if (std::string line = analysis::TellingKernelLine(o.kernel); !line.empty()) {
      notes.push_back(fault + ": kernel: " + line);
    }
  }
  table.Print(out);
  for (const std::string& n : notes) fmt::print(out, "  note: {}\n", text::EscapeControlChars(n));
  if (!r.sqlite.empty()) {
    fmt::print(out, "\nSQLite's COMMIT when its sync fails ({}{}; a new connection looks):\n",
               text::EscapeControlChars(r.fs),
               r.fs_options.empty() ? "" : " -o " + text::EscapeControlChars(r.fs_options));
    std::vector<text::Column> heads;
    for (const std::string& head : SqliteSyncFailureHeads()) {
      heads.push_back({head, head == "rows" ? text::Align::kRight : text::Align::kLeft});
    }
    text::Table sqlite(std::move(heads));
    for (const probes::SqliteSyncFailure& f : r.sqlite) {
      std::vector<std::string> cells = SqliteSyncFailureCells(f);
      if (f.status != probes::Outcome::kOk) {
        sqlite.AddSpanRow({cells[0]}, cells[1]);
        continue;
      }
      sqlite.AddRow(std::move(cells));
    }
    sqlite.Print(out);
  }
  fmt::print(out,
             "  {} ran in {}. retry: the same sync again; 2nd fd: a descriptor opened before\n"
             "  the failure; cached: the page read back at once; evicted: once its clean pages "
             "were dropped\n  (no remount); on disk: after an unmount and a mount; size: the "
             "file's (-> after the remount);\n  fs after: whether a new file could be made "
             "(docs/fsync-errors.md)\n",
             text::CountText(r.outcomes.size() + r.sqlite.size()) + " experiments",
             text::FormatNanos(double(r.ns)));
}

}  // namespace

void PrintFsyncErrors(const std::vector<probes::FsyncErrorsResult>& results, std::ostream& out) {
  for (const probes::FsyncErrorsResult& r : results) PrintOne(r, out);
}

}  // namespace durprobe::render::console
