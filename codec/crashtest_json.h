// JSON for targets[].crashtest[] (docs/json.md): one object per configuration, written and read
// back.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "codec/json_fields.h"
#include "sqlite_bench/crashtest_result.h"

namespace durprobe::codec {

nlohmann::json ToJson(const std::vector<sqlite_bench::CrashtestResult>& results);
// The rows under the target's "crashtest" key; none when it has none.
std::vector<sqlite_bench::CrashtestResult> ReadCrashtest(const JsonFields& target);

}  // namespace durprobe::codec
