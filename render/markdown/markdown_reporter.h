// Markdown: a heading per path with its probe and SQLite rows as one pipe table (the flat rows of
// render/flat_rows.h, times in readable units) and its findings as a list, to paste
// into a ticket; compare adds its verdicts, diff its configurations and verdict.
#pragma once

#include <string>

#include "render/reporter.h"

namespace durprobe::render::markdown {

// Text from a report (a path, a message, a mount's source) as Markdown text and as a table
// cell: | and \ escaped with a backslash, < and & as &lt; and &amp; (so no HTML tag or entity
// survives; a > alone opens nothing), control characters, line breaks included, as
// EscapeControlChars shows them (text/utf8.h).
std::string MarkdownText(const std::string& text);
// text as one code span: a fence of one backtick more than the longest run of backticks in it,
// with a space inside each end when text starts or ends with a backtick (or with a space at
// both ends), which CommonMark strips again; control characters escaped as in MarkdownText.
std::string MarkdownCode(const std::string& text);

class MarkdownReporter : public Reporter {
 public:
  Status Write(const model::Report& report, std::ostream& out) const override;
  Status Write(const explain::Comparison& comparison, std::ostream& out) const override;
  Status Write(const explain::Diff& diff, std::ostream& out) const override;
};

}  // namespace durprobe::render::markdown
