// Markdown: a heading per path with its probe and SQLite rows as one pipe table (the flat rows of
// report/format/flat/flat_rows.h, times in readable units) and its findings as a list, to paste
// into a ticket; compare adds its verdicts, diff its configurations and verdict.
#pragma once

#include <string>

#include "report/format/reporter.h"

namespace durprobe::report {

// Escapes what would break a table cell (| and line breaks).
std::string MarkdownCell(const std::string& text);

class MarkdownReporter : public Reporter {
 public:
  Format format() const override { return Format::kMarkdown; }
  Status Write(const Report& report, std::ostream& out) const override;
  Status Write(const Comparison& comparison, std::ostream& out) const override;
  Status Write(const Diff& diff, std::ostream& out) const override;
};

}  // namespace durprobe::report
