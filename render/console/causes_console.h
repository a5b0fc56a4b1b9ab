// The causes section of diff and compare on the console: why the two sides differ, best first,
// each with its evidence and advice, then the command that tests the leading one, and what
// `compare --try` measured when it ran it.
#pragma once

#include <optional>
#include <ostream>
#include <vector>

#include "explain/causes.h"
#include "explain/trial.h"

namespace durprobe::render::console {

void PrintCauses(const std::vector<explain::Cause>& causes, std::ostream& out);
void PrintTried(const explain::TrialResult& tried, std::ostream& out);

}  // namespace durprobe::render::console
