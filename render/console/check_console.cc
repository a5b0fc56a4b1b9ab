#include "render/console/check_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cctype>

#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {

void PrintChecks(const std::vector<model::CheckResult>& checks, std::ostream& out) {
  fmt::print(out, "\nChecks:\n");
  int counts[5] = {0, 0, 0, 0, 0};
  for (const model::CheckResult& c : checks) {
    ++counts[static_cast<int>(c.outcome)];
    std::string tag(NameOf(c.outcome));
    for (char& ch : tag) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (c.warning) tag += "*";  // a pass with a caveat: the message says which
    // A yes/no rule that passes with a warning (durable on an unproven path) did not measure
    // "yes": it says what it found.
    bool unproven = c.warning && c.unit == model::CheckUnit::kNone;
    std::string value =
        unproven     ? "not proven"
        : c.measured ? fmt::format("{} {} {}", model::FormatCheckValue(*c.measured, c.unit),
                                   RelationShown(c), model::FormatCheckValue(c.threshold, c.unit))
                     : "not measured";
    fmt::print(out, "  {:<7} {}  {}  {}: {}\n", tag, text::EscapeControlChars(c.path),
               text::EscapeControlChars(c.rule), text::EscapeControlChars(value),
               text::EscapeControlChars(c.message));
  }
  std::string unstable =
      counts[4] ? fmt::format(", {} unstable (the device moved: not measured reliably)", counts[4])
                : "";
  fmt::print(out, "{} passed, {} failed, {} could not be evaluated, {} skipped{}\n", counts[0],
             counts[1], counts[2], counts[3], unstable);
  if (std::any_of(checks.begin(), checks.end(),
                  [](const model::CheckResult& c) { return c.warning; })) {
    fmt::print(out,
               "PASS*: passed with a warning (an unproven path: the message says what would "
               "prove it)\n");
  }
}

}  // namespace durprobe::render::console
