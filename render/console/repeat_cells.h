// The console's cells for a figure measured once per repeat (--repeat N, model/repeats.h): the
// median with the range between the repeats in place of the confidence interval, which only
// says how noisy one run was: "152 us (140-171 us)".
#pragma once

#include <string>

#include "model/repeats.h"

namespace durprobe::report {

// "152 us (140-171 us)"; the unit said once where both ends share it: "2.10 ms (140 us-4.10 ms)".
std::string NanosRangeCell(const RepeatSpread& s);
// "3,720 (3,410-3,980)".
std::string RateRangeCell(const RepeatSpread& s);
// The note under a table whose figures are medians over the repeats.
std::string RepeatsNote();

}  // namespace durprobe::report
