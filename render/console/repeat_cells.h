// The console's cells for a figure measured once per repeat (--repeat N, model/repeats.h): the
// median with the next run's interval in place of the confidence interval, which only says how
// noisy one run was: "152 us (131-180 us)"; where the repeats differ twofold, the least and the
// greatest repeat's in square brackets: "2.10 ms [140 us-4.10 ms]".
#pragma once

#include <string>

#include "model/repeats.h"

namespace durprobe::render::console {

// "152 us (131-180 us)"; the unit said once where both ends share it: "2.10 ms [140 us-4.10 ms]".
std::string NanosRangeCell(const model::RepeatSpread& s);
// "3,720 (3,310-4,100)", or "3,720 [1,410-3,980]".
std::string RateRangeCell(const model::RepeatSpread& s);
// The note under a table whose figures are medians over the repeats.
std::string RepeatsNote();

}  // namespace durprobe::render::console
