// summarize's CSV: one row per host and path, every figure unformatted.
#pragma once

#include <ostream>
#include <vector>

#include "explain/summary.h"

namespace durprobe::render::csv {

void WriteSummaryCsv(const std::vector<explain::SummaryRow>& rows, std::ostream& out);

}  // namespace durprobe::render::csv
