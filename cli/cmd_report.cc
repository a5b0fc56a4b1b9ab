#include "cli/cmd_report.h"

#include <iostream>
#include <memory>
#include <sstream>

#include "cli/saved_reports.h"
#include "report/html_reporter.h"

namespace durprobe::cli {

Subcommand SetupReport(CLI::App& app) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* sub = app.add_subcommand("report", "Render saved reports (from --json) as a page");
  sub->add_option("REPORT", options->reports, "Saved durprobe.report/1 files")->required();
  sub->add_option("--html", options->html,
                  "Write one self-contained HTML page (plots inline) to FILE, or -")
      ->type_name("FILE|-")
      ->required();
  return {sub, [options] { return RunReport(*options); }};
}

int RunReport(const ReportOptions& o) {
  platform::Platform& platform = platform::Default();
  std::vector<report::SourcedReport> reports;
  for (const std::string& path : o.reports) {
    Result<report::Report> read = LoadReport(platform, path);
    if (!read.ok()) return UsageError(read.status().message());
    reports.push_back({path, *read});
  }
  std::ostringstream page;
  Status written = report::WriteHtmlPage(reports, page);
  if (!written.ok()) return UsageError(written.message());
  if (o.html == "-") {
    std::cout << page.str();
    return kExitOk;
  }
  Status saved = platform.ReplaceFileAtomically(o.html, page.str());
  if (!saved.ok()) return UsageError("cannot write the page: " + saved.message());
  return kExitOk;
}

}  // namespace durprobe::cli
