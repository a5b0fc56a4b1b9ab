// checks[] of a check report: rule, path, status, pass, measured, threshold, comparison, unit,
// message, and for latency rules samples, ci_low, ci_high, tail_failure, severe (docs/json.md).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "model/report.h"

namespace durprobe::codec {

nlohmann::json ToJson(const std::vector<model::CheckResult>& checks);

}  // namespace durprobe::codec
