#include "report/reporter.h"

#include <fmt/format.h>

#include "report/console_reporter.h"
#include "report/csv_reporter.h"
#include "report/html_reporter.h"
#include "report/json_reporter.h"
#include "report/markdown_reporter.h"
#include "report/junit_reporter.h"
#include "report/prometheus_reporter.h"

namespace durprobe::report {

std::string_view NameOf(Format format) {
  switch (format) {
    case Format::kConsole:
      return "console";
    case Format::kJson:
      return "json";
    case Format::kCsv:
      return "csv";
    case Format::kMarkdown:
      return "markdown";
    case Format::kJunit:
      return "junit";
    case Format::kPrometheus:
      return "prometheus";
    case Format::kHtml:
      return "html";
  }
  return "unknown";
}

Status Reporter::Write(const Comparison&, std::ostream&) const {
  return Status::Unsupported(
      fmt::format("the {} format has no view of a comparison", NameOf(format())));
}

Status Reporter::Write(const Diff&, std::ostream&) const {
  return Status::Unsupported(fmt::format("the {} format has no view of a diff", NameOf(format())));
}

Status Reporter::Write(const Summary&, std::ostream&) const {
  return Status::Unsupported(
      fmt::format("the {} format has no view of a summary", NameOf(format())));
}

Status Reporter::Write(const SavedReports&, std::ostream&) const {
  return Status::Unsupported(
      fmt::format("the {} format has no view of saved reports", NameOf(format())));
}

std::unique_ptr<Reporter> MakeReporter(Format format) {
  switch (format) {
    case Format::kConsole:
      return std::make_unique<ConsoleReporter>();
    case Format::kJson:
      return std::make_unique<JsonReporter>();
    case Format::kCsv:
      return std::make_unique<CsvReporter>();
    case Format::kMarkdown:
      return std::make_unique<MarkdownReporter>();
    case Format::kHtml:
      return std::make_unique<HtmlReporter>();
    case Format::kJunit:
      return std::make_unique<JunitReporter>();
    case Format::kPrometheus:
      return std::make_unique<PrometheusReporter>();
    default:
      return nullptr;  // not built yet
  }
}

}  // namespace durprobe::report
