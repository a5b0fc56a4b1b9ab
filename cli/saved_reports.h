// Saved reports as the commands that read them (diff, report) load them: the file read, parsed
// and checked to be a durprobe report; every failure InvalidArgument naming the file.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "platform/platform.h"

namespace durprobe::cli {

inline constexpr std::size_t kMaxReportBytes = 64u << 20;

Result<nlohmann::json> LoadReport(platform::Platform& platform, const std::string& path);

}  // namespace durprobe::cli
