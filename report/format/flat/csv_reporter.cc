#include "report/format/flat/csv_reporter.h"

#include <fmt/format.h>

#include "report/documents/compare_analysis.h"
#include "report/documents/diff_analysis.h"
#include "report/format/flat/flat_rows.h"
#include "report/format/flat/summary_csv.h"

namespace durprobe::report {
namespace {

void WriteRow(const std::vector<std::string>& cells, std::ostream& out) {
  for (std::size_t i = 0; i < cells.size(); ++i) out << (i ? "," : "") << CsvField(cells[i]);
  out << "\r\n";
}

void WriteTargets(const std::vector<Target>& targets, std::ostream& out) {
  WriteRow(FlatColumns(), out);
  for (const std::vector<std::string>& row : FlatRows(targets)) WriteRow(row, out);
}

}  // namespace

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

Status CsvReporter::Write(const Report& report, std::ostream& out) const {
  WriteTargets(report.targets, out);
  return Status::Ok();
}

Status CsvReporter::Write(const Comparison& comparison, std::ostream& out) const {
  WriteTargets(comparison.targets, out);
  return Status::Ok();
}

Status CsvReporter::Write(const Diff& diff, std::ostream& out) const {
  WriteRow({"journal_mode", "synchronous", "rows_per_commit", "commits_per_sec_a",
            "commits_per_sec_b", "share_sync_latency", "share_sync_count", "share_non_sync"},
           out);
  for (const ConfigDiff& c : diff.configs) {
    WriteRow({c.journal_mode, c.synchronous, std::to_string(c.rows_per_commit),
              FlatNumber(c.commits_per_sec_a), FlatNumber(c.commits_per_sec_b),
              FlatNumber(c.share_sync_latency), FlatNumber(c.share_sync_count),
              FlatNumber(c.share_non_sync)},
             out);
  }
  return Status::Ok();
}

Status CsvReporter::Write(const Summary& summary, std::ostream& out) const {
  WriteSummaryCsv(summary.rows, out);
  return Status::Ok();
}

}  // namespace durprobe::report
