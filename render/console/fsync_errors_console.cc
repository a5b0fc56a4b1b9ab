#include "render/console/fsync_errors_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "analysis/fsync_error_meaning.h"
#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::report {
namespace {

void PrintOne(const probes::FsyncErrorsResult& r, std::ostream& out) {
  fmt::print(out,
             "\nFailed writes on the crash device ({}{}, kernel {}): what each sync returned, "
             "what the page held\n",
             EscapeControlChars(r.fs),
             r.fs_options.empty() ? "" : " -o " + EscapeControlChars(r.fs_options),
             EscapeControlChars(r.kernel));
  Table table({{"fault", Align::kLeft},
               {"sync", Align::kLeft},
               {"write", Align::kLeft},
               {"1st sync", Align::kLeft},
               {"retry", Align::kLeft},
               {"2nd fd", Align::kLeft},
               {"cached", Align::kLeft},
               {"on disk", Align::kLeft},
               {"fs after", Align::kLeft},
               {"remount", Align::kLeft},
               {"a retry", Align::kLeft}});
  std::vector<std::string> notes;
  for (const probes::FsyncErrorOutcome& o : r.outcomes) {
    std::string fault(probes::NameOf(o.fault));
    if (o.status != probes::Outcome::kOk) {
      table.AddSpanRow({fault, o.sync}, EscapeControlChars(fmt::format(
                                            "{}: {}", probes::NameOf(o.status), o.reason)));
      continue;
    }
    table.AddRow({fault, o.sync, o.write, o.first_sync, o.second_sync, o.other_sync,
                  std::string(probes::NameOf(o.cached)), std::string(probes::NameOf(o.remounted)),
                  std::string(probes::NameOf(o.state)), o.remount_ok ? "ok" : "failed",
                  o.retry.empty() ? "-" : o.retry});
    if (!o.later_sync.empty()) {
      notes.push_back(fmt::format("{}: once the device wrote again, {} returned {}", fault, o.sync,
                                  o.later_sync));
    }
    if (!o.remount_ok) notes.push_back(fault + ": the next mount failed: " + o.remount_error);
    if (std::string line = TellingKernelLine(o.kernel); !line.empty()) {
      notes.push_back(fault + ": kernel: " + line);
    }
  }
  table.Print(out);
  for (const std::string& n : notes) fmt::print(out, "  note: {}\n", EscapeControlChars(n));
  if (!r.sqlite.empty()) {
    fmt::print(out, "\nSQLite's COMMIT when its sync fails ({}{}; a new connection looks):\n",
               EscapeControlChars(r.fs),
               r.fs_options.empty() ? "" : " -o " + EscapeControlChars(r.fs_options));
    Table sqlite({{"journal", Align::kLeft},
                  {"COMMIT returned", Align::kLeft},
                  {"reopened", Align::kLeft},
                  {"rows"},
                  {"after remount", Align::kLeft},
                  {"rows"}});
    for (const probes::SqliteSyncFailure& f : r.sqlite) {
      if (f.status != probes::Outcome::kOk) {
        sqlite.AddSpanRow({f.journal_mode}, EscapeControlChars(fmt::format(
                                                "{}: {}", probes::NameOf(f.status), f.reason)));
        continue;
      }
      sqlite.AddRow({f.journal_mode, EscapeControlChars(f.commit), f.reopened,
                     CountText(f.rows_reopened), f.remounted, CountText(f.rows_remounted)});
    }
    sqlite.Print(out);
  }
  fmt::print(out,
             "  {} ran in {}. retry: the same sync again; 2nd fd: a descriptor opened before "
             "the failure;\n  cached: the page read back at once; on disk: after an unmount and "
             "a mount; fs after: whether\n  a new file could be made (docs/fsync-errors.md)\n",
             CountText(r.outcomes.size() + r.sqlite.size()) + " experiments",
             FormatNanos(double(r.ns)));
}

}  // namespace

void PrintFsyncErrors(const std::vector<probes::FsyncErrorsResult>& results, std::ostream& out) {
  for (const probes::FsyncErrorsResult& r : results) PrintOne(r, out);
}

}  // namespace durprobe::report
