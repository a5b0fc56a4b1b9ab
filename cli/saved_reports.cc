#include "cli/saved_reports.h"

#include <fmt/format.h>

#include "report/diff_analysis.h"

namespace durprobe::cli {

Result<nlohmann::json> LoadReport(platform::Platform& platform, const std::string& path) {
  if (platform.KindOf(path) == platform::PathKind::kMissing) {
    return Status::InvalidArgument(fmt::format("report '{}' does not exist", path));
  }
  Result<std::string> text = platform.ReadTextFile(path, kMaxReportBytes);
  if (!text.ok()) return Status::InvalidArgument(text.status().message());
  Result<nlohmann::json> doc = report::ParseJsonText(*text);
  if (!doc.ok()) return Status::InvalidArgument(path + ": " + doc.status().message());
  Status valid = report::ValidateReport(*doc);
  if (!valid.ok()) return Status::InvalidArgument(path + ": " + valid.message());
  return doc;
}

}  // namespace durprobe::cli
