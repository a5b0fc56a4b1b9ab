#include "render/csv/csv_reporter.h"

#include <fmt/format.h>

#include <set>
#include <string_view>

#include "explain/compare_analysis.h"
#include "explain/diff_analysis.h"
#include "render/csv/summary_csv.h"
#include "render/flat_rows.h"

namespace durprobe::render::csv {
namespace {

// The flat table's columns that hold text; every other one holds a number or nothing.
const std::set<std::string>& FlatTextColumns() {
  static const std::set<std::string> text = [] {
    std::set<std::string> names = {
        "path",        "kind",   "primitive", "pattern",      "journal_mode",
        "synchronous", "status", "reason",    "crash_device", "crash_agrees_with_crashsim",
        "fs_options"};
    for (const std::string& c : FlatColumns()) {
      if (c.rfind("fault_", 0) == 0 && c.find("size") == std::string::npos &&
          c.find("rows") == std::string::npos) {
        names.insert(c);
      }
    }
    return names;
  }();
  return text;
}

// text[i]: cell i is text (CsvText), else a number (CsvField); a header row is all text.
void WriteRow(const std::vector<std::string>& cells, const std::vector<bool>& text,
              std::ostream& out) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    bool is_text = i >= text.size() || text[i];
    out << (i ? "," : "") << (is_text ? CsvText(cells[i]) : CsvField(cells[i]));
  }
  out << "\r\n";
}

void WriteTargets(const std::vector<model::Target>& targets, std::ostream& out) {
  std::vector<bool> text;
  for (const std::string& name : FlatColumns()) text.push_back(FlatTextColumns().contains(name));
  WriteRow(FlatColumns(), {}, out);
  for (const std::vector<std::string>& row : FlatRows(targets)) WriteRow(row, text, out);
}

}  // namespace

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string CsvText(const std::string& text) {
  bool formula =
      !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string::npos;
  return CsvField(formula ? "'" + text : text);
}

Status CsvReporter::Write(const model::Report& report, std::ostream& out) const {
  WriteTargets(report.targets, out);
  return Status::Ok();
}

Status CsvReporter::Write(const explain::Comparison& comparison, std::ostream& out) const {
  WriteTargets(comparison.targets, out);
  return Status::Ok();
}

Status CsvReporter::Write(const explain::Diff& diff, std::ostream& out) const {
  WriteRow({"journal_mode", "synchronous", "rows_per_commit", "commits_per_sec_a",
            "commits_per_sec_b", "share_sync_latency", "share_sync_count", "share_non_sync"},
           {}, out);
  for (const explain::ConfigDiff& c : diff.configs) {
    WriteRow({c.journal_mode, c.synchronous, std::to_string(c.rows_per_commit),
              FlatNumber(c.commits_per_sec_a), FlatNumber(c.commits_per_sec_b),
              FlatNumber(c.share_sync_latency), FlatNumber(c.share_sync_count),
              FlatNumber(c.share_non_sync)},
             {true, true, false, false, false, false, false, false}, out);
  }
  return Status::Ok();
}

Status CsvReporter::Write(const explain::Summary& summary, std::ostream& out) const {
  WriteSummaryCsv(summary.rows, out);
  return Status::Ok();
}

}  // namespace durprobe::render::csv
