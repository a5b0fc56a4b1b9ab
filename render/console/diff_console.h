// diff's console reporter: a table per configuration with the gap's shares, the configuration
// differences, and the verdict.
#pragma once

#include <ostream>

#include "explain/diff_analysis.h"

namespace durprobe::report {

void PrintDiff(const Diff& diff, std::ostream& out);

}  // namespace durprobe::report
