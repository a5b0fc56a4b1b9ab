// CSV (RFC 4180): the flat table of render/flat_rows.h with a header row; for compare,
// the same rows for every path; for diff, one row per configuration with both sides and the shares.
#pragma once

#include <string>

#include "render/reporter.h"

namespace durprobe::render::csv {

// A field quoted when it holds a comma, a quote or a line break (quotes doubled).
std::string CsvField(const std::string& text);
// A text cell (a path, a host, a name, a message) as a field: text a spreadsheet would take for
// a formula (starting with = + - @, a tab or a carriage return) gets a leading ' first, as OWASP
// advises for CSV injection. Numeric columns go through CsvField alone, so -3.2 stays a number.
std::string CsvText(const std::string& text);

class CsvReporter : public Reporter {
 public:
  Status Write(const model::Report& report, std::ostream& out) const override;
  Status Write(const explain::Comparison& comparison, std::ostream& out) const override;
  Status Write(const explain::Diff& diff, std::ostream& out) const override;
  Status Write(const explain::Summary& summary, std::ostream& out) const override;
};

}  // namespace durprobe::render::csv
