// compare's JSON document, durprobe.compare/1: the paths, each path's report target and the
// verdicts against the first (docs/json.md).
#pragma once

#include <nlohmann/json.hpp>

#include "explain/compare_analysis.h"

namespace durprobe::report {

nlohmann::json ToJson(const Comparison& comparison);

}  // namespace durprobe::report
