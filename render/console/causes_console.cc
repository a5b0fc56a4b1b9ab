#include "render/console/causes_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

#include "text/utf8.h"

namespace durprobe::render::console {

void PrintCauses(const std::vector<explain::Cause>& causes, std::ostream& out) {
  if (causes.empty()) return;
  fmt::print(out, "\nWhy, best first (score: how well the measured deltas fit each cause):\n");
  // The ratio style below 1 is explained once, before its first use (issue 57: `1/1.02x` was on
  // screen with no word).
  const bool below_one = std::any_of(causes.begin(), causes.end(), [](const explain::Cause& c) {
    return c.evidence.find("(1/") != std::string::npos ||
           c.evidence.find(" 1/") != std::string::npos;
  });
  if (below_one) fmt::print(out, "  (a ratio below 1 is written 1/Nx: 1/2.00x is half)\n");
  for (std::size_t i = 0; i < causes.size(); ++i) {
    const explain::Cause& c = causes[i];
    fmt::print(out, "  {}. {} {:.2f}  {}\n", i + 1, text::EscapeControlChars(c.key), c.score,
               text::EscapeControlChars(c.evidence));
    fmt::print(out, "     advice: {}\n", text::EscapeControlChars(c.advice));
  }
  const explain::Trial& t = causes.front().trial;
  if (t.command.empty()) return;
  if (!t.kind) {
    fmt::print(out, "  test the leading cause: {} ({})\n", text::EscapeControlChars(t.command),
               text::EscapeControlChars(t.note));
  } else {
    fmt::print(out, "  test the leading cause: {} (compare --try runs it)\n",
               text::EscapeControlChars(t.command));
  }
}

void PrintTried(const explain::TrialResult& tried, std::ostream& out) {
  const std::string instead =
      tried.instead_of.empty()
          ? ""
          : fmt::format(", as the leading cause, {}, has no test", tried.instead_of);
  fmt::print(out, "\nTried ({}{}): {}\n  {}\n", text::EscapeControlChars(tried.cause),
             text::EscapeControlChars(instead), text::EscapeControlChars(tried.command),
             text::EscapeControlChars(tried.effect));
}

}  // namespace durprobe::render::console
