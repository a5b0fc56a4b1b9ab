// compare's JSON document, durprobe.compare/1: the paths, each path's report target and the
// verdicts against the first (docs/json.md).
#pragma once

#include <nlohmann/json.hpp>

#include "explain/compare_analysis.h"

namespace durprobe::render::json {

nlohmann::json ToJson(const explain::Comparison& comparison);

}  // namespace durprobe::render::json
