// Saved reports as the commands that read them (diff, report) load them: the file (or standard
// input for "-") read and parsed with the typed reader; every failure InvalidArgument naming the
// file.
#pragma once

#include <string>

#include "platform/platform.h"
#include "report/model/report.h"

namespace durprobe::cli {

inline constexpr std::size_t kMaxReportBytes = 64u << 20;

Result<report::Report> LoadReport(platform::Platform& platform, const std::string& path);

}  // namespace durprobe::cli
