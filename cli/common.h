// What every subcommand shares: common options, target path checks, error lines, and the one
// emit path (check destinations, run with a live console and progress, write every format).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "report/model/report.h"
#include "report/output/output.h"
#include "run/plan.h"

namespace durprobe::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFail = 1;
inline constexpr int kExitUsage = 2;

// The report files a command can write, one option per format.
struct OutputOptions {
  std::string json, csv, markdown, html, junit, prometheus;  // "" none, a file, or "-"
  bool quiet = false;
  bool verbose = false;
  bool dry_run = false;  // print the plan (context.options) as JSON and measure nothing
};

struct CommonOptions {
  bool quick = false;
  std::string budget;  // a duration; "" means the subcommand's default
  OutputOptions out;
};

// -q/--quiet, -v/--verbose and -V/--version: every command has them.
void AddStandardFlags(CLI::App& app, OutputOptions& options);
// --dry-run: print the plan as JSON and measure nothing.
void AddDryRun(CLI::App& app, OutputOptions& options);
// One option per format (-j/--json FILE|-, --csv FILE, ...), for the formats given.
void AddOutputOptions(CLI::App& app, OutputOptions& options,
                      const std::vector<report::Format>& formats);
// The formats run, probe, sqlite and compare write.
std::vector<report::Format> ReportFormats();
// --quick (described for this command) and --budget (with this command's default), --dry-run,
// the output options and standard flags.
void AddCommonOptions(CLI::App& app, CommonOptions& options, const std::string& quick_help,
                      const std::string& default_budget);

std::vector<report::Destination> Destinations(const OutputOptions& options);

// A parsed subcommand and the function that runs it, returning the exit status.
struct Subcommand {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

// Prints "durprobe: error: <message>" on stderr and returns kExitUsage.
int UsageError(const std::string& message);

// Absolute, symlink-resolved directories; InvalidArgument naming the first bad path.
Result<std::vector<std::string>> ResolveTargets(platform::Platform& platform,
                                                const std::vector<std::string>& paths);

// The budget in ns: the option's value, or quick_ns / default_ns.
Result<std::uint64_t> BudgetNanos(const CommonOptions& options, std::uint64_t default_ns,
                                  std::uint64_t quick_ns);

// The command line as typed (set by Main), shell-quoted where a word needs it.
void SetCommandLine(int argc, char** argv);
const std::string& CommandLine();

// What a finished run's report adds to the exit status (e.g. a failed SQLite configuration
// gives 1); 0 when nothing does.
using ReportVerdict = std::function<int(const report::Report&)>;

// The emit path for a measured report: checks the destinations (before measuring), runs plan
// with the live console on stdout (unless quiet or a format takes stdout) and the progress line
// on a terminal's stderr, then writes every destination, also after an interruption. Returns
// 128+signal when interrupted, 2 on bad input, else verdict's status.
// analyze, when given, completes the report after measuring and before anything is written
// (check evaluates its rules there). An interrupted check still exits 130/143.
int ExecutePlan(platform::Platform& platform, run::Plan plan, const OutputOptions& out,
                const ReportVerdict& verdict = nullptr,
                const std::function<void(report::Report&)>& analyze = nullptr);

// The same for compare: the console table comes at the end (a column per path).
int ExecuteComparePlan(platform::Platform& platform, run::Plan plan, const OutputOptions& out);

// Prints "durprobe: error: PATH: what failed" on stderr for every probe whose sync or write
// returned an error, and every SQLite configuration and workload that failed; returns how many.
int MeasurementFailures(const report::Report& report);
// 1 when MeasurementFailures found any, else 0: the verdict of run, probe, sqlite and compare.
int FailedMeasurements(const report::Report& report);

// Exit status for a run that ended on SIGINT/SIGTERM (128 + signal), or -1 when none arrived.
int InterruptedExitCode();

// CLI11 validators that reuse report/units parsing, so errors read the same everywhere.
CLI::Validator Size();
CLI::Validator Duration();
// Case-insensitive choice among names; the error lists the valid ones:
// "--synchronous: 'ful' is not one of full, normal, off, extra".
CLI::Validator OneOf(const std::vector<std::string>& names, const std::string& what);

// The names of a name-to-value table (probes::PrimitiveNames(), ...), for OneOf.
template <typename Value>
std::vector<std::string> KeysOf(const std::map<std::string, Value>& table) {
  std::vector<std::string> out;
  for (const auto& entry : table) out.push_back(entry.first);
  return out;
}

// A number between lo and hi (inclusive), with the one wording every bad value gets:
// "--repetitions: '0' is not in 1..1000". Replaces CLI::Range, whose message reads otherwise.
CLI::Validator InRange(double lo, double hi);

// A comma-separated list option that takes one argument per use, so a following PATH is not
// swallowed into the list.
CLI::Option* AddListOption(CLI::App& app, const std::string& name, std::vector<std::string>& into,
                           const std::string& help);

}  // namespace durprobe::cli
