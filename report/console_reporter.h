// Plain-text tables for a terminal. Formats only: every number comes from the report.
#pragma once

#include <ostream>
#include <vector>

#include "report/report.h"

namespace durprobe::report {

// One table of probe results, then one line per unsupported / failed probe and per caveat.
void PrintProbeTable(const std::vector<probes::ProbeResult>& results, std::ostream& out);

// The whole report: build warnings, then per target its heading, sections and findings.
void PrintReport(const Report& report, std::ostream& out);

}  // namespace durprobe::report
