#include "render/html/html_fsync_errors.h"

#include <fmt/format.h>

#include "render/html/html_text.h"

namespace durprobe::report::html {
namespace {

std::string Cells(const std::vector<std::string>& cells) {
  std::string out = "<tr>";
  for (const std::string& c : cells) out += "<td>" + Escape(c) + "</td>";
  return out + "</tr>\n";
}

}  // namespace

std::string FsyncErrorsSection(const std::vector<probes::FsyncErrorsResult>& results) {
  std::string out;
  for (const probes::FsyncErrorsResult& r : results) {
    out += fmt::format(
        "<h3>Failed writes on the crash device ({}{}, kernel {})</h3>\n<p>Each experiment on a "
        "freshly made filesystem: a block write fails, then the sync, its retry, and the same "
        "sync on a descriptor opened before the failure; the page read back at once and after "
        "an unmount and a mount; whether a new file could still be made "
        "(docs/fsync-errors.md).</p>\n<table class=\"fsync-errors\">\n<thead><tr><th>fault</th>"
        "<th>sync</th><th>write</th><th>1st sync</th><th>retry</th><th>2nd fd</th>"
        "<th>cached</th><th>on disk</th><th>fs after</th><th>remount</th><th>a retry</th>"
        "</tr></thead>\n<tbody>\n",
        Escape(r.fs), r.fs_options.empty() ? "" : " -o " + Escape(r.fs_options), Escape(r.kernel));
    for (const probes::FsyncErrorOutcome& o : r.outcomes) {
      if (o.status != probes::Outcome::kOk) {
        out += fmt::format("<tr><td>{}</td><td>{}</td><td colspan=\"9\">{}: {}</td></tr>\n",
                           probes::NameOf(o.fault), Escape(o.sync), probes::NameOf(o.status),
                           Escape(o.reason));
        continue;
      }
      out += Cells({std::string(probes::NameOf(o.fault)), o.sync, o.write, o.first_sync,
                    o.second_sync, o.other_sync, std::string(probes::NameOf(o.cached)),
                    std::string(probes::NameOf(o.remounted)), std::string(probes::NameOf(o.state)),
                    o.remount_ok ? "ok" : "failed", o.retry.empty() ? "-" : o.retry});
    }
    out += "</tbody>\n</table>\n";
    if (r.sqlite.empty()) continue;
    out +=
        "<table class=\"fsync-errors-sqlite\">\n<thead><tr><th>journal</th><th>COMMIT "
        "returned</th><th>reopened</th><th class=\"num\">rows</th><th>after remount</th>"
        "<th class=\"num\">rows</th></tr></thead>\n<tbody>\n";
    for (const probes::SqliteSyncFailure& f : r.sqlite) {
      out +=
          Cells({f.journal_mode, f.status == probes::Outcome::kOk ? f.commit : f.reason, f.reopened,
                 std::to_string(f.rows_reopened), f.remounted, std::to_string(f.rows_remounted)});
    }
    out += "</tbody>\n</table>\n";
  }
  return out;
}

}  // namespace durprobe::report::html
