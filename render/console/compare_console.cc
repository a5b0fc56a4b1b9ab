#include "render/console/compare_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "model/labels.h"
#include "render/console/causes_console.h"
#include "render/console/console_reporter.h"
#include "text/line_width.h"
#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

// A row: its label and, per path, the median (absent when not measured there).
struct Row {
  std::string label;
  std::vector<std::optional<double>> p50;
};

std::string ProbeLabel(const probes::ProbeResult& r) { return model::ProbeLabel(r.spec); }

std::vector<Row> Rows(const std::vector<model::Target>& targets) {
  std::vector<Row> rows;
  auto cell = [&](const std::string& label, std::size_t path) -> std::optional<double>& {
    auto it =
        std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.label == label; });
    if (it == rows.end()) {
      rows.push_back({label, std::vector<std::optional<double>>(targets.size())});
      it = rows.end() - 1;
    }
    return it->p50[path];
  };
  for (std::size_t i = 0; i < targets.size(); ++i) {
    for (const probes::ProbeResult& r : targets[i].probes) {
      bool ok = r.outcome == probes::Outcome::kOk && r.ops > 0;
      std::optional<double>& c = cell(ProbeLabel(r), i);
      if (ok) c = static_cast<double>(r.latency.p50);
      // The metadata component counts the directory fsync alone: its own row, so the
      // component is the sum of rows shown.
      if (r.spec.primitive == probes::Primitive::kDirFsync && r.has_sync_part) {
        std::optional<double>& s = cell(ProbeLabel(r) + " (sync call)", i);
        if (ok) s = static_cast<double>(r.sync_latency.p50);
      }
    }
    for (const model::SqliteEntry& e : targets[i].sqlite) {
      std::optional<double>& c = cell(
          fmt::format("sqlite {}/{} x{} commit", sqlite_bench::NameOf(e.result.config.journal),
                      sqlite_bench::NameOf(e.result.config.sync), e.result.config.rows_per_commit),
          i);
      if (e.result.outcome == probes::Outcome::kOk && e.result.commits > 0) {
        c = static_cast<double>(e.result.latency.p50);
      }
    }
    for (const probes::OpCostResult& r : targets[i].op_costs) {
      std::optional<double>& c = cell(fmt::format("op {}", probes::NameOf(r.op)), i);
      if (r.outcome == probes::Outcome::kOk && r.ops > 0) c = static_cast<double>(r.latency.p50);
    }
    // Concurrent syncers (--writers): each writer's sync at that many writers.
    for (const probes::ConcurrencyResult& r : targets[i].concurrency) {
      std::optional<double>& c =
          cell(fmt::format("{} {} writers {} sync", probes::NameOf(r.spec.primitive),
                           r.spec.writers, probes::NameOf(r.spec.mode)),
               i);
      if (r.outcome == probes::Outcome::kOk && r.ops > 0) c = static_cast<double>(r.latency.p50);
    }
  }
  return rows;
}

// The answer first: one line per path, its durability and its verdict against the first.
void PrintCompareSummary(const explain::Comparison& c, std::ostream& out) {
  for (std::size_t i = 0; i < c.targets.size(); ++i) {
    const model::Target& t = c.targets[i];
    std::string verdict = i == 0 ? "the baseline" : "-";
    for (const explain::Verdict& v : c.verdicts) {
      if (v.path != t.path || i == 0) continue;
      verdict = v.dominant == explain::Dominant::kUnmeasured
                    ? VerdictHeadline(v)
                    : fmt::format("{} ({})", VerdictHeadline(v), text::FormatRatio(v.ratio));
    }
    std::string durability =
        t.durability ? std::string(NameOf(t.durability->verdict)) : "durability not assessed";
    fmt::print(out, "  [{}] {}: {}; {}\n", i + 1, text::EscapeControlChars(t.path),
               text::EscapeControlChars(verdict), text::EscapeControlChars(durability));
  }
}

}  // namespace

void PrintComparison(const explain::Comparison& c, std::ostream& out) {
  for (const std::string& w : BuildWarnings(c.context))
    fmt::print(out, "warning: {}\n", text::EscapeControlChars(w));
  fmt::print(out, "Summary:\n");
  PrintCompareSummary(c, out);
  fmt::print(out, "\nMedian latency per operation; ratios against the first path.\n");
  for (std::size_t i = 0; i < c.targets.size(); ++i) {
    fmt::print(out, "  [{}] {}\n", i + 1, text::EscapeControlChars(c.targets[i].path));
  }
  fmt::print(out, "\n");
  std::vector<text::Column> columns = {{"probe", text::Align::kLeft}};
  for (std::size_t i = 0; i < c.targets.size(); ++i) {
    columns.push_back({fmt::format("[{}] p50", i + 1)});
    if (i > 0) columns.push_back({fmt::format("[{}]/[1]", i + 1)});
  }
  text::Table table(std::move(columns));
  for (const Row& row : Rows(c.targets)) {
    std::vector<std::string> cells = {row.label};
    for (std::size_t i = 0; i < row.p50.size(); ++i) {
      cells.push_back(row.p50[i] ? text::FormatNanos(*row.p50[i]) : "-");
      if (i == 0) continue;
      bool ratio = row.p50[i] && row.p50[0] && *row.p50[0] > 0;
      cells.push_back(ratio ? text::FormatRatio(*row.p50[i] / *row.p50[0]) : "-");
    }
    table.AddRow(std::move(cells));
  }
  table.Print(out);
  fmt::print(out, "\nWhere the difference comes from (sums of the medians above):\n");
  text::Table parts({{"path", text::Align::kLeft}, {"per sync"}, {"per op"}, {"metadata"}}, 2);
  for (std::size_t i = 0; i < c.targets.size(); ++i) {
    explain::Components comp = explain::ComponentsOf(c.targets[i]);
    auto show = [](const std::optional<double>& v) { return v ? text::FormatNanos(*v) : "-"; };
    parts.AddRow({fmt::format("[{}]", i + 1), show(comp.per_sync_ns), show(comp.per_op_ns),
                  show(comp.metadata_ns)});
  }
  parts.Print(out);
  fmt::print(out, "  per sync = {}; per op = {};\n  metadata = {}\n", explain::kPerSyncParts,
             explain::kPerOpParts, explain::kMetadataParts);
  for (const explain::Verdict& v : c.verdicts) {
    fmt::print(out, "\nverdict for {}: {}\n  {}\n", text::EscapeControlChars(v.path),
               text::EscapeControlChars(VerdictHeadline(v)), text::EscapeControlChars(v.message));
    PrintCauses(v.causes, out);
  }
  if (c.tried) PrintTried(*c.tried, out);
  for (const model::Target& t : c.targets) {
    for (const model::Finding& f : t.findings) {
      PrintFindingLine(
          fmt::format("[{}] {} {}: {}", NameOf(f.severity), text::EscapeControlChars(t.path),
                      text::EscapeControlChars(f.code), text::EscapeControlChars(f.message)),
          out);
    }
  }
  // On a terminal the summary has scrolled off by now (as run's and check's recap say).
  if (text::LineWidth(out) > 0) {
    fmt::print(out, "\nRecap (the Summary above, in short):\n");
    PrintCompareSummary(c, out);
  }
}

}  // namespace durprobe::render::console
