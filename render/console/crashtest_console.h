// The crashtest results as a terminal table, one row per configuration: states, corrupt, lost,
// and whether crashsim's model agreed. Formats only.
#pragma once

#include <ostream>
#include <vector>

#include "sqlite_bench/crashtest_result.h"

namespace durprobe::render::console {

void PrintCrashtestTable(const std::vector<sqlite_bench::CrashtestResult>& results,
                         std::ostream& out);

}  // namespace durprobe::render::console
