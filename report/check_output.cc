#include "report/check_output.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cctype>

#include "report/units.h"

namespace durprobe::report {

std::string FormatCheckValue(double value, const std::string& unit) {
  if (unit == "s") return FormatNanos(value * 1e9);
  if (unit.empty()) return value != 0.0 ? "yes" : "no";
  if (unit == "syncs" || unit == "findings") return fmt::format("{:.0f} {}", value, unit);
  return fmt::format("{} {}", FormatRate(value), unit);
}

void PrintChecks(const std::vector<CheckResult>& checks, std::ostream& out) {
  fmt::print(out, "\nChecks:\n");
  int counts[4] = {0, 0, 0, 0};
  for (const CheckResult& c : checks) {
    ++counts[static_cast<int>(c.outcome)];
    std::string tag(NameOf(c.outcome));
    for (char& ch : tag) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    std::string value = c.measured
                            ? fmt::format("{} {} {}", FormatCheckValue(*c.measured, c.unit),
                                          c.comparison, FormatCheckValue(c.threshold, c.unit))
                            : "not measured";
    fmt::print(out, "  {:<7} {}  {}  {}: {}\n", tag, c.path, c.rule, value, c.message);
  }
  fmt::print(out, "{} passed, {} failed, {} could not be evaluated, {} skipped\n", counts[0],
             counts[1], counts[2], counts[3]);
}

nlohmann::json ToJson(const std::vector<CheckResult>& checks) {
  nlohmann::json out = nlohmann::json::array();
  for (const CheckResult& c : checks) {
    nlohmann::json j{{"rule", c.rule},
                     {"path", c.path},
                     {"status", NameOf(c.outcome)},
                     {"pass", c.outcome == CheckOutcome::kPass},
                     {"measured", c.measured ? nlohmann::json(*c.measured) : nlohmann::json()},
                     {"threshold", c.threshold},
                     {"comparison", c.comparison},
                     {"unit", c.unit},
                     {"message", c.message}};
    if (c.samples != 0) j["samples"] = c.samples;
    if (c.ci_low) j["ci_low"] = *c.ci_low;
    if (c.ci_high) j["ci_high"] = *c.ci_high;
    if (c.tail_failure) j["tail_failure"] = true;
    if (c.severe) j["severe"] = true;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace durprobe::report
