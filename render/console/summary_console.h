// summarize's console table: one line per host and path.
#pragma once

#include <ostream>
#include <vector>

#include "explain/summary.h"

namespace durprobe::report {

void WriteSummaryTable(const std::vector<SummaryRow>& rows, std::ostream& out);

}  // namespace durprobe::report
