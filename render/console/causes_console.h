// The causes section of diff and compare on the console: why the two sides differ, best first,
// each with its evidence and advice, then the command that tests the leading one, and what
// `compare --try` measured when it ran it.
#pragma once

#include <optional>
#include <ostream>
#include <vector>

#include "explain/causes.h"
#include "explain/trial.h"

namespace durprobe::report {

void PrintCauses(const std::vector<Cause>& causes, std::ostream& out);
void PrintTried(const TrialResult& tried, std::ostream& out);

}  // namespace durprobe::report
