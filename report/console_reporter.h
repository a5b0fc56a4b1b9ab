// Plain-text tables for a terminal. Formats only: every number comes from the report.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "report/report.h"
#include "report/reporter.h"

namespace durprobe::report {

// The probe table a row at a time (the live console prints each row as its probe finishes):
// the header, a row (collecting the notes the row needs, once each), then the notes.
void PrintProbeHeader(std::ostream& out);
void PrintProbeRow(const probes::ProbeResult& r, std::vector<std::string>& notes,
                   std::ostream& out);
void PrintNotes(const std::vector<std::string>& notes, std::ostream& out);
// A target's findings, and what an interruption left unrun, each under its heading.
void PrintFindings(const Target& target, std::ostream& out);
void PrintUnfinished(const Target& target, std::ostream& out);

// One table of probe results, then one line per unsupported / failed probe and per caveat.
void PrintProbeTable(const std::vector<probes::ProbeResult>& results, std::ostream& out);

// The whole report: build warnings, then per target its heading, sections and findings.
void PrintReport(const Report& report, std::ostream& out);

// The console format behind the output seam: the same tables, for a whole document at once.
class ConsoleReporter : public Reporter {
 public:
  Format format() const override { return Format::kConsole; }
  Status Write(const Report& report, std::ostream& out) const override;
  Status Write(const Comparison& comparison, std::ostream& out) const override;
  Status Write(const Diff& diff, std::ostream& out) const override;
};

}  // namespace durprobe::report
