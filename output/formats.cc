#include "output/reporter_factory.h"

#include "render/console/console_reporter.h"
#include "render/csv/csv_reporter.h"
#include "render/html/html_reporter.h"
#include "render/json/json_reporter.h"
#include "render/junit/junit_reporter.h"
#include "render/markdown/markdown_reporter.h"
#include "render/prometheus/prometheus_reporter.h"

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
