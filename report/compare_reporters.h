// compare's two reporters: a console table with a column per path and ratios against the first,
// and the durprobe.compare/1 JSON document. They only format.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "report/compare_analysis.h"

namespace durprobe::report {

void PrintComparison(const Comparison& comparison, std::ostream& out);
nlohmann::json ToJson(const Comparison& comparison);

}  // namespace durprobe::report
