// What every subcommand shares: common options, target path checks, error lines, report output.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "report/report.h"

namespace durprobe::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFail = 1;
inline constexpr int kExitUsage = 2;

struct CommonOptions {
  std::string json;  // "", a file, or "-" for stdout
  bool quick = false;
  std::string budget;  // a duration; "" means the subcommand's default
  bool quiet = false;
  bool verbose = false;
};

void AddCommonOptions(CLI::App& app, CommonOptions& options);

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

// Writes the console report (unless quiet, or JSON goes to stdout) and the JSON file.
Status EmitReport(platform::Platform& platform, const report::Report& report,
                  const CommonOptions& options);

// Prints "durprobe: error: PATH: what: reason" on stderr for every measurement that failed (a
// probe's I/O error, a SQLite configuration's error or checksum mismatch, a workload's error);
// returns how many. A run with failures exits kExitFail after writing its report.
int PrintFailures(const std::vector<report::Target>& targets);

// Writes text to path whole or not at all: a sibling temporary file renamed over path, removed
// when a write fails (a full filesystem leaves no partial report, and an old report survives).
Status WriteWhole(platform::Platform& platform, const std::string& path, const std::string& text);

// Exit status for a run that ended on SIGINT/SIGTERM (128 + signal), or -1 when none arrived.
int InterruptedExitCode();

// CLI11 validators that reuse report/units parsing, so errors read the same everywhere.
CLI::Validator Size();
CLI::Validator Duration();
// Case-insensitive choice among names; the error lists the valid ones. (CLI11's
// CheckedTransformer does the same but its message prints the map twice.)
CLI::Validator OneOf(const std::vector<std::string>& names, const std::string& what);

// A comma-separated list option that takes one argument per use, so a following PATH is not
// swallowed into the list.
CLI::Option* AddListOption(CLI::App& app, const std::string& name, std::vector<std::string>& into,
                           const std::string& help);

}  // namespace durprobe::cli
