// The HTML format behind the output seam: one self-contained page (inline SVG plots drawn by
// durprobe, an inline style sheet, no script, nothing loaded from anywhere) for a report, a
// comparison or a diff. docs/html.md says how to read each plot.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "model/report.h"
#include "render/reporter.h"

namespace durprobe::render::html {

// A report and the file it was read from ("" when it comes straight from a run).
struct SourcedReport {
  std::string source;
  model::Report report;
};

// Saved reports rendered together: `report`'s document.
struct SavedReports {
  std::vector<SourcedReport> reports;
};

// One page for several saved reports (`durprobe report A.json B.json --html FILE`): each report's
// context and targets in turn.
Status WriteHtmlPage(const std::vector<SourcedReport>& reports, std::ostream& out);

// One target: heading, mount and device table, findings, probes, SQLite.
std::string TargetSection(const model::Target& target, const std::string& id_prefix);

class HtmlReporter : public Reporter {
 public:
  Status Write(const model::Report& report, std::ostream& out) const override;
  Status Write(const explain::Comparison& comparison, std::ostream& out) const override;
  Status Write(const explain::Diff& diff, std::ostream& out) const override;
  Status Write(const SavedReports& saved, std::ostream& out) const override;
};

}  // namespace durprobe::render::html
