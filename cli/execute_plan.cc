#include "cli/execute_plan.h"

#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/exit_status.h"
#include "explain/compare_analysis.h"
#include "explain/layer_sync_findings.h"
#include "output/output.h"
#include "platform/interrupt.h"
#include "render/console/progress_console.h"
#include "run/executor.h"

namespace durprobe::cli {
namespace {

// --dry-run: the plan as context.options would record it, with the paths.
int PrintPlan(const run::Plan& plan) {
  nlohmann::json j = run::Describe(plan);
  j["command"] = plan.command;
  j["paths"] = plan.paths;
  std::cout << j.dump(2) << "\n";
  return kExitOk;
}

std::size_t UnfinishedItems(const std::vector<model::Target>& targets) {
  std::size_t unfinished = 0;
  for (const model::Target& t : targets) unfinished += t.unfinished.size();
  return unfinished;
}

// Status for the end of a run: the interruption message (exit 128+signal), or -1. unfinished
// is counted from the targets the documents were written from (compare moves them out of ex).
int ReportInterruption(std::size_t unfinished) {
  int code = InterruptedExitCode();
  if (code < 0) return -1;
  std::string what = platform::SignalName(code - 128);
  UsageError(
      fmt::format("interrupted by {}: kept what finished ({} item(s) not run or not finished); "
                  "scratch removed",
                  what, unfinished));
  return code;
}

// What every measuring command shares: destinations checked first, --dry-run, the command line,
// the progress line or log on stderr, then the run. Fills ex; returns the exit status when the
// run cannot go on (bad input, a dry run), or -1.
int RunPlan(platform::Platform& platform, run::Plan& plan, const OutputOptions& out,
            const std::vector<output::Destination>& files, run::Execution& ex) {
  if (Status ok = output::CheckDestinations(platform, files); !ok.ok()) {
    return UsageError(ok.message());
  }
  if (out.dry_run) return PrintPlan(plan);
  plan.command_line = CommandLine();
  model::ListenerList listeners;
  int columns = platform.TerminalColumns(2);
  render::console::ProgressLine line(std::cerr, render::console::ProgressLine::kTickNs,
                                     columns > 0 ? static_cast<std::size_t>(columns) : 0);
  render::console::ProgressLog log(std::cerr);
  if (!out.quiet && out.verbose) listeners.Add(&log);
  if (!out.quiet && !out.verbose && platform.IsTerminal(2)) listeners.Add(&line);
  ex = run::Execute(platform, plan, listeners);
  if (ex.status.kind() == Status::Kind::kInvalidArgument) return UsageError(ex.status.message());
  return -1;
}

// After the documents are written: the interruption, a run error, a write error, or -1.
int EndOfRun(const run::Execution& ex, std::size_t unfinished, const Status& written) {
  if (int code = ReportInterruption(unfinished); code >= 0) return code;
  if (!ex.status.ok()) return UsageError(ex.status.message());
  if (!written.ok()) return UsageError("cannot write the report: " + written.message());
  return -1;
}

}  // namespace

int ExecutePlan(platform::Platform& platform, run::Plan plan, const OutputOptions& out,
                const ReportVerdict& verdict, const std::function<void(model::Report&)>& analyze,
                int interrupted_exit) {
  std::vector<output::Destination> files = Destinations(out);
  // The report is printed whole at the end, its summary first (and check's headline above it),
  // on a terminal fitted to the width and closed by a recap, while the progress line on stderr
  // tells what runs; piped output is the same document, so a log opens with the answer too.
  run::Execution ex;
  if (int code = RunPlan(platform, plan, out, files, ex); code >= 0) return code;
  if (analyze) analyze(ex.report);
  if (!out.quiet && !output::UsesStdout(files)) {
    // A stdout that refuses the console copy fails the command at its end (FinishStandardOutput).
    (void)output::WriteDestinations(platform, {{output::Format::kConsole, "-"}}, ex.report,
                                    std::cout);
  }
  Status written = output::WriteDestinations(platform, files, ex.report, std::cout);
  if (int code = EndOfRun(ex, UnfinishedItems(ex.report.targets), written); code >= 0) {
    return interrupted_exit >= 0 && InterruptedExitCode() >= 0 ? interrupted_exit : code;
  }
  return verdict ? verdict(ex.report) : kExitOk;
}

int ExecuteComparePlan(platform::Platform& platform, run::Plan plan, const OutputOptions& out,
                       const TryCause& try_cause) {
  std::vector<output::Destination> files = Destinations(out);
  run::Execution ex;
  if (int code = RunPlan(platform, plan, out, files, ex); code >= 0) return code;
  int failure_code = MeasurementExitCode(ex.report);
  explain::Comparison comparison{ex.report.context, std::move(ex.report.targets), {}};
  explain::AddLayerSyncFindings(comparison.targets);
  comparison.verdicts = explain::CompareVerdicts(comparison.targets);
  if (try_cause && ex.status.ok() && InterruptedExitCode() < 0) {
    comparison.tried = try_cause(comparison);
  }
  if (!out.quiet && !output::UsesStdout(files)) {
    // A stdout that refuses the console copy fails the command at its end (FinishStandardOutput).
    (void)output::WriteDestinations(platform, {{output::Format::kConsole, "-"}}, comparison,
                                    std::cout);
  }
  Status written = output::WriteDestinations(platform, files, comparison, std::cout);
  if (int code = EndOfRun(ex, UnfinishedItems(comparison.targets), written); code >= 0) {
    return code;
  }
  return failure_code;
}

}  // namespace durprobe::cli
