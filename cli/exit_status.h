// Exit codes and the one-line errors on stderr: a usage error, the measurements that failed, and
// the status of a run that a signal ended.
#pragma once

#include <ostream>
#include <string>

#include "model/report.h"

namespace durprobe::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFail = 1;
inline constexpr int kExitUsage = 2;

// Every line below is printed with its control bytes escaped (text::EscapeControlChars): a
// path or a saved report's text cannot drive the terminal or forge a line of its own.
// Prints "durprobe: error: <message>" on stderr and returns kExitUsage.
int UsageError(const std::string& message);
// Prints "durprobe: error: <message>" on stderr.
void PrintError(const std::string& message);
// Prints text and a newline on out.
void PrintLine(std::ostream& out, const std::string& text);

// Prints "durprobe: error: PATH: what failed" on stderr for every probe whose sync or write
// returned an error, and every SQLite configuration and workload that failed; returns how many
// (a count, not an exit code).
int PrintMeasurementFailures(const model::Report& report);
// The exit code for the report's failed measurements: prints them (PrintMeasurementFailures) and
// returns kExitFail when there are any, else kExitOk. The verdict of run, probe, sqlite and
// compare.
int MeasurementExitCode(const model::Report& report);

// Exit status for a run that ended on SIGINT/SIGTERM (128 + signal), or -1 when none arrived.
int InterruptedExitCode();

}  // namespace durprobe::cli
