// JUnit XML for CI systems: a <testsuite> per path and a <testcase> per rule (classname the path,
// name the rule), a <failure> with the measured value and threshold, an <error> for a rule that
// could not be measured, <skipped> for an unsupported primitive. Checks only: a report without
// them has nothing to show as tests.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "render/reporter.h"

namespace durprobe::render::junit {

// text with &, <, >, " and ' escaped, and control characters XML 1.0 forbids dropped.
std::string XmlEscape(std::string_view text);

class JunitReporter : public Reporter {
 public:
  Status Write(const model::Report& report, std::ostream& out) const override;
};

}  // namespace durprobe::render::junit
