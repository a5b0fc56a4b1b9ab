// The answer first: a path's summary and its settings to use, as the console prints them at
// the top of the path's block (decided in explain/path_summary.h). Formats only.
#pragma once

#include <ostream>
#include <string_view>
#include <vector>

#include "model/report.h"

namespace durprobe::render::console {

// "Summary" and its labelled lines; nothing when the target has none.
void PrintPathSummary(const model::Target& target, std::ostream& out);
// "Settings to use" and one labelled line per advice; nothing when there is none.
void PrintAdvice(const model::Target& target, std::ostream& out);
// check's answer: PASS or FAIL, and the first failing rule; nothing without checks. where says
// where the Checks list is printed from this line ("below" at the top, "above" in the recap).
void PrintCheckVerdict(const std::vector<model::CheckResult>& checks, std::ostream& out,
                       std::string_view where = "below");
// The end of a whole document on a terminal, where the summary at its top has scrolled away:
// each path's durability, sync cost and SQLite setting lines, and check's headline.
void PrintRecap(const model::Report& report, std::ostream& out);

}  // namespace durprobe::render::console
