// The check results in the console and JSON formats (the JUnit and Prometheus reporters have
// files of their own).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "report/report.h"

namespace durprobe::report {

// A measured or threshold value in the result's unit, for people: "8.20 ms", "512/s", "1".
std::string FormatCheckValue(double value, const std::string& unit);

// One line per rule and path: PASS/FAIL/ERROR/SKIP, rule, measured, comparison, threshold, and
// the message (the finding or the one-line reason); then the totals.
void PrintChecks(const std::vector<CheckResult>& checks, std::ostream& out);

// checks[]: rule, path, status, pass, measured, threshold, comparison, unit, message, and for
// latency rules samples, ci_low, ci_high, tail_failure, severe (see docs/json.md).
nlohmann::json ToJson(const std::vector<CheckResult>& checks);

}  // namespace durprobe::report
