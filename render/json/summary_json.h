// summarize's JSON document.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "explain/summary.h"

namespace durprobe::render::json {

// {"schema": "durprobe.summary/1", "rows": [...]}
nlohmann::json SummaryJson(const std::vector<explain::SummaryRow>& rows);

}  // namespace durprobe::render::json
