#include "output/formats.h"

#include <initializer_list>
#include <iterator>

#include "render/console/console_reporter.h"
#include "render/csv/csv_reporter.h"
#include "render/html/html_reporter.h"
#include "render/json/json_reporter.h"
#include "render/junit/junit_reporter.h"
#include "render/markdown/markdown_reporter.h"
#include "render/prometheus/prometheus_reporter.h"

namespace durprobe::output {
namespace {

template <typename R>
std::unique_ptr<render::Reporter> Make() {
  return std::make_unique<R>();
}

constexpr std::uint8_t Bits(std::initializer_list<Document> documents) {
  std::uint8_t bits = 0;
  for (Document d : documents) bits |= static_cast<std::uint8_t>(d);
  return bits;
}

constexpr FormatRow kFormats[] = {
    {.format = Format::kConsole,
     .name = "console",
     .documents = Bits({Document::kReport, Document::kComparison, Document::kDiff,
                        Document::kSummary, Document::kPowercutEvidence}),
     .make = Make<render::console::ConsoleReporter>},
    {.format = Format::kJson,
     .name = "json",
     .short_option = "-j",
     .help = "Write the JSON report to FILE, or - for stdout",
     .documents = Bits({Document::kReport, Document::kComparison, Document::kDiff,
                        Document::kSummary, Document::kPowercutEvidence}),
     .make = Make<render::json::JsonReporter>},
    {.format = Format::kCsv,
     .name = "csv",
     .help = "Write a flat CSV table (probes and SQLite rows) to FILE or -",
     .documents =
         Bits({Document::kReport, Document::kComparison, Document::kDiff, Document::kSummary}),
     .make = Make<render::csv::CsvReporter>},
    {.format = Format::kMarkdown,
     .name = "markdown",
     .help = "Write Markdown tables (for a ticket) to FILE or -",
     .documents = Bits({Document::kReport, Document::kComparison, Document::kDiff}),
     .make = Make<render::markdown::MarkdownReporter>},
    {.format = Format::kHtml,
     .name = "html",
     .help = "Write a self-contained HTML page with plots to FILE",
     .documents =
         Bits({Document::kReport, Document::kComparison, Document::kDiff, Document::kSavedReports}),
     .make = Make<render::html::HtmlReporter>},
    {.format = Format::kJunit,
     .name = "junit",
     .help = "Write JUnit XML (a testcase per rule) to FILE or -",
     .documents = Bits({Document::kReport}),
     .make = Make<render::junit::JunitReporter>,
     .rules_only = true},
    {.format = Format::kPrometheus,
     .name = "prometheus",
     .help = "Write a Prometheus textfile to FILE or -",
     .documents = Bits({Document::kReport}),
     .make = Make<render::prometheus::PrometheusReporter>},
};

// One row per enumerator, in the enum's order: a format added to the enum without its row (or a
// row out of place) fails to build here.
constexpr bool RowsInEnumOrder() {
  for (std::size_t i = 0; i < std::size(kFormats); ++i) {
    if (kFormats[i].format != static_cast<Format>(i) || kFormats[i].make == nullptr) return false;
  }
  return true;
}
static_assert(std::size(kFormats) == kFormatCount, "one row per Format");
static_assert(RowsInEnumOrder(), "the rows in the enum's order, each with its factory");

}  // namespace

std::string_view NounOf(Document document) {
  switch (document) {
    case Document::kReport:
      return "a report";
    case Document::kComparison:
      return "a comparison";
    case Document::kDiff:
      return "a diff";
    case Document::kSummary:
      return "a summary";
    case Document::kSavedReports:
      return "saved reports";
    case Document::kPowercutEvidence:
      return "power-cut evidence";
  }
  return "a document";  // only a value cast from outside the enum
}

std::span<const FormatRow> FormatTable() { return kFormats; }

const FormatRow& RowOf(Format format) { return kFormats[static_cast<std::size_t>(format)]; }

std::string_view NameOf(Format format) { return RowOf(format).name; }

std::string OptionOf(Format format) { return "--" + std::string(NameOf(format)); }

bool Renders(Format format, Document document) {
  return (RowOf(format).documents & static_cast<std::uint8_t>(document)) != 0;
}

std::vector<Format> FormatsWriting(Document document) {
  std::vector<Format> out;
  for (const FormatRow& row : kFormats) {
    if (!row.help.empty() && Renders(row.format, document)) out.push_back(row.format);
  }
  return out;
}

std::unique_ptr<render::Reporter> MakeReporter(Format format) { return RowOf(format).make(); }

}  // namespace durprobe::output
