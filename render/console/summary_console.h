// summarize's console table: one line per host and path.
#pragma once

#include <ostream>
#include <vector>

#include "explain/summary.h"

namespace durprobe::render::console {

void WriteSummaryTable(const std::vector<explain::SummaryRow>& rows, std::ostream& out);

}  // namespace durprobe::render::console
