// Fills the report's context block (report/model/report.h Context): tool version, host, OS, kernel,
// SQLite, build, start time.
#pragma once

#include <string>

#include "platform/platform.h"
#include "report/model/report.h"

namespace durprobe::run {

report::Context MakeContext(platform::Platform& platform, const std::string& command);

}  // namespace durprobe::run
