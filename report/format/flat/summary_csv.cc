#include "report/format/flat/summary_csv.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "report/format/flat/csv_reporter.h"

namespace durprobe::report {

void WriteSummaryCsv(const std::vector<SummaryRow>& rows, std::ostream& out) {
  fmt::print(out,
             "host,path,fstype,device,sync_probe,sync_p50_ns,sync_p99_ns,commits_wal_full,"
             "commits_delete_full,failed_rules,findings,durability,started_at,file\n");
  auto num = [](const std::optional<double>& v) { return v ? fmt::format("{}", *v) : ""; };
  for (const SummaryRow& r : rows) {
    fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", CsvField(r.host),
               CsvField(r.path), CsvField(r.fstype), CsvField(r.device), CsvField(r.sync_probe),
               num(r.sync_p50_ns), num(r.sync_p99_ns), num(r.commits_wal_full),
               num(r.commits_delete_full),
               CsvField(fmt::format("{}", fmt::join(r.failed_rules, " "))),
               CsvField(fmt::format("{}", fmt::join(r.findings, " "))), CsvField(r.durability),
               CsvField(r.started_at), CsvField(r.file));
  }
}

}  // namespace durprobe::report
