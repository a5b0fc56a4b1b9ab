// diff's console reporter: a table per configuration with the gap's shares, the configuration
// differences, and the verdict.
#pragma once

#include <ostream>

#include "explain/diff_analysis.h"

namespace durprobe::render::console {

void PrintDiff(const explain::Diff& diff, std::ostream& out);

}  // namespace durprobe::render::console
