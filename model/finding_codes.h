// Every finding code durprobe can raise, in one list: `check --fail-on` and a policy's `fail_on`
// accept only these (a typo would otherwise never match and pass for ever). docs/findings.md
// documents each; tests/model/finding_codes_test.cc holds the list, the page and the
// code that raises findings to each other.
#pragma once

#include <string_view>
#include <vector>

namespace durprobe::report {

// In the order of docs/findings.md.
const std::vector<std::string_view>& FindingCodes();
bool IsFindingCode(std::string_view code);

}  // namespace durprobe::report
