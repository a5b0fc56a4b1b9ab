// Plain-text tables for a terminal. Formats only: every number comes from the report.
#pragma once

#include <functional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/report.h"
#include "render/console/table_notes.h"
#include "render/reporter.h"
#include "text/table.h"

namespace durprobe::render::console {

// The probe table's columns, a row (collecting its notes), then the notes. repeated: the run
// had --repeat, so the median's and the p99's cells hold their range between the repeats.
// flushes: a probe's device flushes were counted (AnyFlushesCounted), so the last column is
// flush/op, the first a narrow terminal leaves out.
text::Table ProbeTable(bool repeated = false, bool flushes = false);
// repeats: the row's figures over the repeats, when the run repeated (Target::probe_repeats).
// The row's last cell is its flush/op, which a table without that column does not print.
void AddProbeRow(text::Table& table, const probes::ProbeResult& r, TableNotes& notes,
                 const model::ProbeRepeats* repeats = nullptr);
void PrintProbeNotes(const TableNotes& notes, std::ostream& out);
// A target's durability verdict and findings, and what an interruption left unrun, each under
// its heading.
void PrintFindings(const model::Target& target, std::ostream& out);
// A finding's line ("[warn] code: message", escaped), indented; piped, broken at the stream's
// LongLineWrap when longer than kLongLine (text/line_width.h).
void PrintFindingLine(const std::string& line, std::ostream& out);
void PrintUnfinished(const model::Target& target, std::ostream& out);

// One table of probe results, then one line per unsupported / failed probe and per caveat,
// (given the target) per probe measured while the device moved, and, when flushes were counted,
// the devices counted or why they could not be.
void PrintProbeTable(const std::vector<probes::ProbeResult>& results, std::ostream& out,
                     const model::Target* target = nullptr);

// What print writes, with every line that is still wider than out's LineWidth wrapped with a
// hanging indent (tables have already chosen their columns to fit it).
void PrintFitted(std::ostream& out, const std::function<void(std::ostream&)>& print);

// The whole report: build warnings, then per target its heading, sections and findings.
void PrintReport(const model::Report& report, std::ostream& out);

// The console format behind the output seam: the same tables, for a whole document at once.
class ConsoleReporter : public Reporter {
 public:
  Status Write(const model::Report& report, std::ostream& out) const override;
  Status Write(const explain::Comparison& comparison, std::ostream& out) const override;
  Status Write(const explain::Diff& diff, std::ostream& out) const override;
  Status Write(const explain::Summary& summary, std::ostream& out) const override;
  Status Write(const model::PowercutEvidence& evidence, std::ostream& out) const override;
};

}  // namespace durprobe::render::console
