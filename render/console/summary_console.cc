#include "render/console/summary_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

std::string Opt(const std::optional<double>& v, bool nanos) {
  if (!v) return "-";
  return nanos ? text::FormatNanos(*v) : text::FormatRate(*v);
}

}  // namespace

void WriteSummaryTable(const std::vector<explain::SummaryRow>& rows, std::ostream& out) {
  // The answer first: the fleet's worst paths, those failing rules before those with warnings,
  // whatever order --sort gave the table.
  std::vector<std::string> worst;
  for (bool rules : {true, false}) {
    for (const explain::SummaryRow& r : rows) {
      bool pick = rules ? !r.failed_rules.empty() : r.failed_rules.empty() && !r.findings.empty();
      if (worst.size() < 3 && pick) {
        std::string why = rules ? r.failed_rules.front() : r.findings.front();
        worst.push_back(text::EscapeControlChars(fmt::format("{}:{} ({})", r.host, r.path, why)));
      }
    }
  }
  fmt::print(out, "Summary: {} path(s); {}\n", rows.size(),
             worst.empty() ? std::string("none fails a rule or has a warning")
                           : fmt::format("worst: {}", fmt::join(worst, ", ")));
  // On a narrow terminal the device and filesystem go first; where, how slow, what failed stay.
  text::Table table({{"host", text::Align::kLeft},
                     {"path", text::Align::kLeft},
                     {"fs", text::Align::kLeft, 2},
                     {"device", text::Align::kLeft, 3},
                     {"durability", text::Align::kLeft},
                     {"sync probe", text::Align::kLeft, 4},
                     {"sync p50", text::Align::kRight, 1},
                     {"sync p99"},
                     {"WAL/FULL", text::Align::kRight, 1},
                     {"DEL/FULL", text::Align::kRight, 1},
                     {"failed rules; findings", text::Align::kLeft, 0, /*wraps=*/true}});
  for (const explain::SummaryRow& r : rows) {
    std::string problems = fmt::format("{}", fmt::join(r.failed_rules, ","));
    if (!r.findings.empty())
      problems += (problems.empty() ? "" : "; ") + fmt::format("{}", fmt::join(r.findings, ", "));
    table.AddRow({r.host, r.path, r.fstype, r.device,
                  r.durability ? std::string(NameOf(*r.durability)) : "-",
                  r.sync_probe.empty() ? "-" : r.sync_probe, Opt(r.sync_p50_ns, true),
                  Opt(r.sync_p99_ns, true), Opt(r.commits_wal_full, false),
                  Opt(r.commits_delete_full, false), problems.empty() ? "-" : problems});
  }
  table.Print(out);
  fmt::print(out,
             "(sync p50/p99: of the sync probe named; WAL/FULL, DEL/FULL: single-row commits/s, "
             "the median of the repetitions)\n");
  bool floor = std::any_of(rows.begin(), rows.end(), [](const explain::SummaryRow& r) {
    return !r.sync_p99_ns && r.sync_p50_ns;
  });
  if (floor) {
    fmt::print(out,
               "(a sync p99 of -: too few operations for one; a sort by p99 uses the row's p50, "
               "the floor under it)\n");
  }
}

}  // namespace durprobe::render::console
