// JSON for targets[].crashsim[]: one object per configuration (docs/json.md).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "sqlite_bench/crashsim_result.h"

namespace durprobe::codec {

nlohmann::json ToJson(const sqlite_bench::CrashsimResult& result);
nlohmann::json ToJson(const std::vector<sqlite_bench::CrashsimResult>& results);

}  // namespace durprobe::codec
