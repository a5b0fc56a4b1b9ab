// summarize's JSON document.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "explain/summary.h"

namespace durprobe::report {

// {"schema": "durprobe.summary/1", "rows": [...]}
nlohmann::json SummaryJson(const std::vector<SummaryRow>& rows);

}  // namespace durprobe::report
