// The answer first: a path's summary and its settings to use, as the console prints them at
// the top of the path's block (decided in explain/path_summary.h). Formats only.
#pragma once

#include <ostream>
#include <vector>

#include "model/report.h"

namespace durprobe::report {

// "Summary" and its labelled lines; nothing when the target has none.
void PrintPathSummary(const Target& target, std::ostream& out);
// "Settings to use" and one labelled line per advice; nothing when there is none.
void PrintAdvice(const Target& target, std::ostream& out);
// check's answer: PASS or FAIL, and the first failing rule; nothing without checks.
void PrintCheckVerdict(const std::vector<CheckResult>& checks, std::ostream& out);

}  // namespace durprobe::report
