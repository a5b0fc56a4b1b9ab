// diff's JSON document, durprobe.diff/1 (docs/json.md).
#pragma once

#include <nlohmann/json.hpp>

#include "explain/diff_analysis.h"

namespace durprobe::report {

nlohmann::json ToJson(const Diff& diff);

}  // namespace durprobe::report
