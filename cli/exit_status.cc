#include "cli/exit_status.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <iostream>

#include "model/labels.h"
#include "platform/interrupt.h"
#include "platform/platform.h"
#include "sqlite_bench/workloads.h"
#include "text/line_width.h"
#include "text/utf8.h"

namespace durprobe::cli {

void PrintLine(std::ostream& out, const std::string& text) {
  fmt::print(out, "{}\n", text::EscapeControlChars(text));
}

void PrintError(const std::string& message) {
  // One line; on a terminal broken at spaces to its width, continuing 4 columns in.
  std::string line = text::EscapeControlChars("durprobe: error: " + message);
  platform::Platform& platform = platform::Default();
  int columns = platform.IsTerminal(2) ? platform.TerminalColumns(2) : 0;
  if (columns > 0) line = text::WrapText(line, static_cast<std::size_t>(columns), 0, 4);
  fmt::print(std::cerr, "{}\n", line);
}

int UsageError(const std::string& message) {
  PrintError(message);
  return kExitUsage;
}

int PrintMeasurementFailures(const model::Report& report) {
  int failed = 0;
  for (const model::Target& t : report.targets) {
    for (const probes::ProbeResult& r : t.probes) {
      if (r.outcome != probes::Outcome::kError) continue;
      PrintError(fmt::format("{}: {}: {}", t.path, model::ProbeLabel(r.spec), r.reason));
      ++failed;
    }
    // A writer that could not start or failed is a measurement that failed like a probe's
    // (docs/errors.md "Failures during measurement"), as is an op-cost probe of compare.
    for (const probes::ConcurrencyResult& c : t.concurrency) {
      if (c.outcome != probes::Outcome::kError) continue;
      fmt::print(std::cerr, "durprobe: error: {}: {}: {}\n", t.path,
                 model::ConcurrencyLabel(c.spec), c.reason);
      ++failed;
    }
    for (const probes::OpCostResult& c : t.op_costs) {
      if (c.outcome != probes::Outcome::kError) continue;
      fmt::print(std::cerr, "durprobe: error: {}: {} cost: {}\n", t.path, probes::NameOf(c.op),
                 c.reason);
      ++failed;
    }
    for (const model::SqliteEntry& e : t.sqlite) {
      if (e.result.outcome != probes::Outcome::kError) continue;
      PrintError(
          fmt::format("{}: {}: {}", t.path, sqlite_bench::Label(e.result.config), e.result.reason));
      ++failed;
    }
    for (const std::string& e : sqlite_bench::WorkloadErrors(t.sqlite_workloads)) {
      PrintError(fmt::format("{}: {}", t.path, e));
      ++failed;
    }
  }
  return failed;
}

int MeasurementExitCode(const model::Report& report) {
  return PrintMeasurementFailures(report) > 0 ? kExitFail : kExitOk;
}

int InterruptedExitCode() {
  int sig = platform::InterruptSignal();
  return sig == 0 ? -1 : 128 + sig;
}

}  // namespace durprobe::cli
