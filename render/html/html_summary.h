// The answer first on the page: a path's summary and its settings to use, at the top of its
// section (decided in explain/path_summary.h). Formats only.
#pragma once

#include <string>

#include "model/report.h"

namespace durprobe::render::html {

// The summary box and the "Settings to use" table; "" when the target has neither.
std::string SummarySection(const model::Target& target);

}  // namespace durprobe::render::html
