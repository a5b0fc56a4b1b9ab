#include "cli/saved_reports.h"

#include <fmt/format.h>

#include <iostream>

#include "cli/exit_status.h"
#include "codec/json_reader.h"
#include "explain/path_summary.h"
#include "platform/interrupt.h"

namespace durprobe::cli {
namespace {

// "-" is standard input (a report piped from another host: ssh b durprobe run --json - | ...).
Result<std::string> ReadReportText(platform::Platform& platform, const std::string& path) {
  if (path == "-") {
    std::string text;
    char buf[65536];
    while (std::cin.read(buf, sizeof buf) || std::cin.gcount() > 0) {
      text.append(buf, static_cast<std::size_t>(std::cin.gcount()));
      if (text.size() > kMaxReportBytes) {
        return Status::InvalidArgument("standard input holds more than a report (over 64 MiB)");
      }
    }
    if (text.empty()) return Status::InvalidArgument("standard input is empty: no report to read");
    return text;
  }
  return ReadSavedReportFile(platform, path);
}

}  // namespace

Result<std::string> ReadSavedReportFile(platform::Platform& platform, const std::string& path) {
  if (platform.KindOf(path) == platform::PathKind::kMissing) {
    return Status::InvalidArgument(fmt::format("report '{}' does not exist", path));
  }
  Result<std::string> text = platform.ReadTextFile(path, kMaxReportBytes + 1);
  if (!text.ok() && text.status().kind() == Status::Kind::kInterrupted) return text.status();
  if (!text.ok()) return Status::InvalidArgument(text.status().message());
  if (text->size() > kMaxReportBytes) {
    return Status::InvalidArgument(fmt::format(
        "{} is over 64 MiB, more than any durprobe report: refused, not read in part", path));
  }
  return text;
}

int LoadFailure(const Status& status) {
  if (status.kind() == Status::Kind::kInterrupted) {
    int code = InterruptedExitCode();
    if (code >= 0) {
      UsageError(fmt::format("interrupted by {} while reading a report",
                             platform::SignalName(code - 128)));
      return code;
    }
  }
  return UsageError(status.message());
}

Result<model::Report> LoadReport(platform::Platform& platform, const std::string& path) {
  Result<std::string> text = ReadReportText(platform, path);
  if (!text.ok()) return text.status();
  Result<model::Report> read = codec::FromJson(*text);
  std::string name = path == "-" ? "standard input" : path;
  if (!read.ok()) return Status::InvalidArgument(name + ": " + read.status().message());
  // A report saved before summaries existed gets its summary decided from what it holds.
  for (model::Target& t : read->targets) {
    if (!t.summary) explain::AddPathSummary(t);
  }
  return read;
}

}  // namespace durprobe::cli
