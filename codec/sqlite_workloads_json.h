// JSON for targets[].sqlite_workloads[]: one entry per measured case, keyed by "workload"
// (docs/json.md), with the contract keys it lists and the detail behind them.
#pragma once

#include <nlohmann/json.hpp>

#include "sqlite_bench/workload_result.h"

namespace durprobe::codec {

nlohmann::json ToJson(const sqlite_bench::WorkloadResults& results);

}  // namespace durprobe::codec
