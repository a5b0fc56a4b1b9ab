// diff's JSON document, durprobe.diff/1 (docs/json.md).
#pragma once

#include <nlohmann/json.hpp>

#include "explain/diff_analysis.h"

namespace durprobe::render::json {

nlohmann::json ToJson(const explain::Diff& diff);

}  // namespace durprobe::render::json
