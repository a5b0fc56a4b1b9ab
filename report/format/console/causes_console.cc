#include "report/format/console/causes_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace durprobe::report {

void PrintCauses(const std::vector<Cause>& causes, std::ostream& out) {
  if (causes.empty()) return;
  fmt::print(out, "\nWhy, best first (score: how well the measured deltas fit each cause):\n");
  for (std::size_t i = 0; i < causes.size(); ++i) {
    const Cause& c = causes[i];
    fmt::print(out, "  {}. {} {:.2f}  {}\n", i + 1, c.key, c.score, c.evidence);
    fmt::print(out, "     advice: {}\n", c.advice);
  }
  const Trial& t = causes.front().trial;
  if (t.command.empty()) return;
  if (t.kind.empty()) {
    fmt::print(out, "  test the leading cause: {} ({})\n", t.command, t.note);
  } else {
    fmt::print(out, "  test the leading cause: {} (compare --try runs it)\n", t.command);
  }
}

void PrintTried(const TrialResult& tried, std::ostream& out) {
  fmt::print(out, "\nTried ({}): {}\n  {}\n", tried.cause, tried.command, tried.effect);
}

}  // namespace durprobe::report
