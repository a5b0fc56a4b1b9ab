#include "cli/cmd_summarize.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli/exit_status.h"
#include "cli/saved_reports.h"
#include "cli/validators.h"
#include "codec/json_reader.h"
#include "explain/summary.h"
#include "model/names.h"

namespace durprobe::cli {
namespace {

// The report's text, tree and model live only inside this call: read with the typed reader,
// summarized, dropped.
Result<std::vector<explain::SummaryRow>> ReadRows(platform::Platform& platform,
                                                  const std::string& file) {
  Result<model::Report> read = [&]() -> Result<model::Report> {
    Result<std::string> text = ReadSavedReportFile(platform, file);
    if (!text.ok()) return text.status();
    return codec::FromJson(*text);
  }();
  if (!read.ok()) return read.status();
  return explain::RowsFromReport(*read, file);
}

}  // namespace

Subcommand SetupSummarize(CLI::App& app) {
  auto o = std::make_shared<SummarizeOptions>();
  CLI::App* sub = app.add_subcommand(
      "summarize", "One row per host and path from saved reports (the fleet view), worst first");
  sub->add_option("REPORT", o->reports, "Reports from --json")->required();
  sub->add_option("--sort", o->sort, "Row order (default worst: failed rules, findings, sync p99)")
      ->transform(OneOf(explain::SummarySortKeys(), "sort key"));
  AddOutputOptions(
      *sub, o->out, output::Document::kSummary,
      {{output::Format::kJson, "Write durprobe.summary/1 to FILE, or - for stdout", "FILE|-"},
       {output::Format::kCsv, "Write the rows as CSV to FILE, or - for stdout", "FILE|-"}});
  AddStandardFlags(*sub, o->out);
  return {sub, [o] { return RunSummarize(*o); }};
}

int RunSummarize(const SummarizeOptions& o) {
  platform::Platform& platform = platform::Default();
  std::vector<output::Destination> files = Destinations(o.out);
  if (Status ok = output::CheckDestinations(platform, files); !ok.ok()) {
    return UsageError(ok.message());
  }
  // One report in memory at a time: each is parsed, turned into rows and dropped.
  explain::Summary summary;
  std::size_t read = 0;
  for (const std::string& file : o.reports) {
    Result<std::vector<explain::SummaryRow>> more = ReadRows(platform, file);
    if (!more.ok() && more.status().kind() == Status::Kind::kInterrupted) {
      return LoadFailure(more.status());
    }
    if (!more.ok()) {
      PrintLine(std::cerr,
                fmt::format("durprobe: warning: skipping {}: {}", file, more.status().message()));
      continue;
    }
    ++read;
    // Copied, not moved: the copies are allocated after the report's tree is freed, into the
    // space it left, instead of pinning small blocks between its holes (peak memory 5x lower).
    for (const explain::SummaryRow& r : *more) summary.rows.push_back(r);
  }
  if (read == 0) return UsageError("none of the reports could be read");
  std::optional<explain::SummarySort> sort = model::ParseName<explain::SummarySort>(o.sort);
  if (!sort) return UsageError("bad sort key: " + o.sort);  // --sort's OneOf lets none through
  explain::SortRows(summary.rows, *sort);
  if (!o.out.quiet && !output::UsesStdout(files)) {
    // A stdout that refuses the console copy fails the command at its end (FinishStandardOutput).
    (void)output::WriteDestinations(platform, {{output::Format::kConsole, "-"}}, summary,
                                    std::cout);
  }
  Status written = output::WriteDestinations(platform, files, summary, std::cout);
  if (!written.ok()) return UsageError("cannot write the summary: " + written.message());
  return kExitOk;
}

}  // namespace durprobe::cli
