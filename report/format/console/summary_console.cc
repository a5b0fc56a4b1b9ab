#include "report/format/console/summary_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "report/text/units.h"

namespace durprobe::report {
namespace {

std::string Opt(const std::optional<double>& v, bool nanos) {
  if (!v) return "-";
  return nanos ? FormatNanos(*v) : FormatRate(*v);
}

}  // namespace

void WriteSummaryTable(const std::vector<SummaryRow>& rows, std::ostream& out) {
  fmt::print(out, "{:<16} {:<24} {:<8} {:<10} {:<11} {:>10} {:>10} {:>9} {:>9}  {}\n", "host",
             "path", "fs", "device", "durability", "sync p50", "sync p99", "WAL/FULL", "DEL/FULL",
             "failed rules; findings");
  for (const SummaryRow& r : rows) {
    std::string problems = fmt::format("{}", fmt::join(r.failed_rules, ","));
    if (!r.findings.empty())
      problems += (problems.empty() ? "" : "; ") + fmt::format("{}", fmt::join(r.findings, ","));
    fmt::print(out, "{:<16} {:<24} {:<8} {:<10} {:<11} {:>10} {:>10} {:>9} {:>9}  {}\n", r.host,
               r.path, r.fstype, r.device, r.durability.empty() ? "-" : r.durability,
               Opt(r.sync_p50_ns, true), Opt(r.sync_p99_ns, true), Opt(r.commits_wal_full, false),
               Opt(r.commits_delete_full, false), problems.empty() ? "-" : problems);
  }
}

}  // namespace durprobe::report
