#include "report/output/reporter_factory.h"

#include "report/format/ci/junit_reporter.h"
#include "report/format/ci/prometheus_reporter.h"
#include "report/format/console/console_reporter.h"
#include "report/format/flat/csv_reporter.h"
#include "report/format/flat/markdown_reporter.h"
#include "report/format/html/html_reporter.h"
#include "report/format/json/json_reporter.h"

namespace durprobe::report {

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
