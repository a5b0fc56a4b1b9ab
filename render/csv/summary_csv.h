// summarize's CSV: one row per host and path, every figure unformatted.
#pragma once

#include <ostream>
#include <vector>

#include "explain/summary.h"

namespace durprobe::report {

void WriteSummaryCsv(const std::vector<SummaryRow>& rows, std::ostream& out);

}  // namespace durprobe::report
