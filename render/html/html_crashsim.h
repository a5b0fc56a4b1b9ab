// The crashsim section: what simulated power cuts lost, per journal_mode x synchronous.
#pragma once

#include <string>
#include <vector>

#include "sqlite_bench/crashsim_result.h"

namespace durprobe::render::html {

// The table of trials, corrupt images and lost commits; "" when crashsim did not run.
std::string CrashsimSection(const std::vector<sqlite_bench::CrashsimResult>& results);

}  // namespace durprobe::render::html
