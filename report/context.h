// Fills the report's context block: tool version, host, OS, kernel, SQLite, build, start time.
#pragma once

#include <string>

#include "platform/platform.h"
#include "report/report.h"

namespace durprobe::report {

Context MakeContext(platform::Platform& platform, const std::string& command);

}  // namespace durprobe::report
