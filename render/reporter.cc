#include "render/reporter.h"

#include <fmt/format.h>

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

}  // namespace durprobe::report
