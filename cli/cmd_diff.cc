#include "cli/cmd_diff.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "report/diff_analysis.h"
#include "report/diff_console.h"
#include "report/json_reporter.h"

namespace durprobe::cli {
namespace {

constexpr std::size_t kMaxReportBytes = 64u << 20;

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

}  // namespace

Subcommand SetupDiff(CLI::App& app) {
  auto options = std::make_shared<DiffOptions>();
  CLI::App* sub = app.add_subcommand("diff", "Explain why two saved reports' commit rates differ");
  sub->add_option("A", options->a, "Report of host (or run) A, from --json")->required();
  sub->add_option("B", options->b, "Report of host (or run) B")->required();
  sub->add_option("--json", options->json, "Write the durprobe.diff/1 document to FILE, or -")
      ->type_name("FILE|-");
  sub->add_flag("--quiet", options->quiet, "Print nothing but errors");
  return {sub, [options] { return RunDiff(*options); }};
}

int RunDiff(const DiffOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<nlohmann::json> a = LoadReport(platform, o.a);
  if (!a.ok()) return UsageError(a.status().message());
  Result<nlohmann::json> b = LoadReport(platform, o.b);
  if (!b.ok()) return UsageError(b.status().message());
  report::Diff diff = report::DiffReports(*a, *b, o.a, o.b);
  if (!o.quiet && o.json != "-") report::PrintDiff(diff, std::cout);
  if (o.json.empty()) return kExitOk;
  std::string text = report::JsonText(report::ToJson(diff));
  if (o.json == "-") {
    std::cout << text;
    return kExitOk;
  }
  Status written = WriteWhole(platform, o.json, text);
  if (!written.ok()) return UsageError("cannot write the diff: " + written.message());
  return kExitOk;
}

}  // namespace durprobe::cli
