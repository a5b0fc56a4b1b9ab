// compare's console table: a column per path, ratios against the first, then the verdicts.
#pragma once

#include <ostream>

#include "explain/compare_analysis.h"

namespace durprobe::render::console {

void PrintComparison(const explain::Comparison& comparison, std::ostream& out);

}  // namespace durprobe::render::console
