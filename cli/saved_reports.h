// Saved reports as the commands that read them (diff, report) load them: the file (or standard
// input for "-") read and parsed with the typed reader; every failure InvalidArgument naming the
// file, except an interruption (Interrupted).
#pragma once

#include <string>

#include "model/report.h"
#include "platform/platform.h"

namespace durprobe::cli {

inline constexpr std::size_t kMaxReportBytes = 64u << 20;

// The text of a saved report file, read whole: a file over kMaxReportBytes is refused with one
// line, never cut (a cut report would be called truncated JSON). A signal that ends the run
// while a FIFO's writer is awaited comes back as Interrupted.
Result<std::string> ReadSavedReportFile(platform::Platform& platform, const std::string& path);

Result<model::Report> LoadReport(platform::Platform& platform, const std::string& path);

// The exit status for a report that could not be loaded: 128+signal with the signal named when
// reading was interrupted, else a usage error (2) with the message.
int LoadFailure(const Status& status);

}  // namespace durprobe::cli
