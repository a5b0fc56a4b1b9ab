#include "render/csv/summary_csv.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "render/csv/csv_reporter.h"

namespace durprobe::render::csv {

void WriteSummaryCsv(const std::vector<explain::SummaryRow>& rows, std::ostream& out) {
  fmt::print(out,
             "host,path,fstype,device,sync_probe,sync_p50_ns,sync_p99_ns,commits_wal_full,"
             "commits_delete_full,failed_rules,findings,durability,started_at,file\n");
  auto num = [](const std::optional<double>& v) { return v ? fmt::format("{}", *v) : ""; };
  for (const explain::SummaryRow& r : rows) {
    fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", CsvText(r.host), CsvText(r.path),
               CsvText(r.fstype), CsvText(r.device), CsvText(r.sync_probe), num(r.sync_p50_ns),
               num(r.sync_p99_ns), num(r.commits_wal_full), num(r.commits_delete_full),
               CsvText(fmt::format("{}", fmt::join(r.failed_rules, " "))),
               CsvText(fmt::format("{}", fmt::join(r.findings, " "))),
               CsvText(r.durability ? std::string(NameOf(*r.durability)) : ""),
               CsvText(r.started_at), CsvText(r.file));
  }
}

}  // namespace durprobe::render::csv
