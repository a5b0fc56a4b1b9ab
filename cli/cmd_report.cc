#include "cli/cmd_report.h"

#include <iostream>
#include <memory>

#include "cli/exit_status.h"
#include "cli/saved_reports.h"
#include "render/html/html_reporter.h"

namespace durprobe::cli {

Subcommand SetupReport(CLI::App& app) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* sub = app.add_subcommand("report", "Render saved reports (from --json) as a page");
  sub->add_option("REPORT", options->reports, "Saved durprobe.report/1 files")->required();
  AddOutputOptions(*sub, options->out, output::Document::kSavedReports,
                   {{output::Format::kHtml,
                     "Write one self-contained HTML page (plots inline) to FILE, or -", "FILE|-"}});
  sub->get_option(output::OptionOf(output::Format::kHtml))->required();  // the page is its output
  AddStandardFlags(*sub, options->out);
  return {sub, [options] { return RunReport(*options); }};
}

int RunReport(const ReportOptions& o) {
  platform::Platform& platform = platform::Default();
  std::vector<output::Destination> files = Destinations(o.out);
  if (Status ok = output::CheckDestinations(platform, files); !ok.ok()) {
    return UsageError(ok.message());
  }
  render::html::SavedReports saved;
  for (const std::string& path : o.reports) {
    Result<model::Report> read = LoadReport(platform, path);
    if (!read.ok()) return LoadFailure(read.status());
    saved.reports.push_back({path, std::move(*read)});
  }
  Status written = output::WriteDestinations(platform, files, saved, std::cout);
  if (!written.ok()) return UsageError("cannot write the page: " + written.message());
  return kExitOk;
}

}  // namespace durprobe::cli
