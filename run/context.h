// Fills the report's context block (model/report.h Context): tool version, host, OS, kernel,
// SQLite, build, start time.
#pragma once

#include <string>

#include "model/report.h"
#include "platform/platform.h"

namespace durprobe::run {

model::Context MakeContext(platform::Platform& platform, const std::string& command);

}  // namespace durprobe::run
