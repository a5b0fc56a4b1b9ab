#include "render/html/html_fsync_errors.h"

#include <fmt/format.h>

#include "render/fsync_error_rows.h"
#include "render/html/html_text.h"

namespace durprobe::render::html {
namespace {

std::string Cells(const std::vector<std::string>& cells) {
  std::string out = "<tr>";
  for (const std::string& c : cells) out += "<td>" + Escape(c) + "</td>";
  return out + "</tr>\n";
}

// The heads, the SQLite table's row counts as numbers.
std::string Heads(const std::vector<std::string>& heads) {
  std::string out = "<tr>";
  for (const std::string& h : heads) {
    out += (h == "rows" ? "<th class=\"num\">" : "<th>") + Escape(h) + "</th>";
  }
  return out + "</tr>";
}

}  // namespace

std::string FsyncErrorsSection(const std::vector<probes::FsyncErrorsResult>& results) {
  std::string out;
  for (const probes::FsyncErrorsResult& r : results) {
    out += fmt::format(
        "<h3>Failed writes on the crash device ({}{}, kernel {})</h3>\n<p>Each experiment on a "
        "freshly made filesystem: a block write fails, then the sync, its retry, and the same "
        "sync on a descriptor opened before the failure; the page read back at once, once its "
        "clean pages were dropped, and after an unmount and a mount; the file's size (-> after "
        "the remount); whether a new file could still be made (docs/fsync-errors.md).</p>\n"
        "<table class=\"fsync-errors\">\n<thead>{}</thead>\n<tbody>\n",
        Escape(r.fs), r.fs_options.empty() ? "" : " -o " + Escape(r.fs_options), Escape(r.kernel),
        Heads(FsyncErrorHeads()));
    for (const probes::FsyncErrorOutcome& o : r.outcomes) {
      std::vector<std::string> cells = FsyncErrorCells(o);
      if (o.status != probes::Outcome::kOk) {
        out += fmt::format("<tr><td>{}</td><td>{}</td><td colspan=\"{}\">{}</td></tr>\n",
                           Escape(cells[0]), Escape(cells[1]), cells.size() - 2, Escape(cells[2]));
        continue;
      }
      out += Cells(cells);
    }
    out += "</tbody>\n</table>\n";
    if (r.sqlite.empty()) continue;
    out += fmt::format("<table class=\"fsync-errors-sqlite\">\n<thead>{}</thead>\n<tbody>\n",
                       Heads(SqliteSyncFailureHeads()));
    for (const probes::SqliteSyncFailure& f : r.sqlite) out += Cells(SqliteSyncFailureCells(f));
    out += "</tbody>\n</table>\n";
  }
  return out;
}

}  // namespace durprobe::render::html
