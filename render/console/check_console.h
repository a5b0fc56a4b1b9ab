// The check results on the console (JSON: codec/check_json.h; JUnit and Prometheus have
// reporters of their own).
#pragma once

#include <ostream>
#include <vector>

#include "model/report.h"

namespace durprobe::render::console {

// One line per rule and path: PASS/FAIL/ERROR/SKIP, rule, measured, comparison, threshold, and
// the message (the finding or the one-line reason); then the totals.
void PrintChecks(const std::vector<model::CheckResult>& checks, std::ostream& out);

}  // namespace durprobe::render::console
