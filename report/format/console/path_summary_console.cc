#include "report/format/console/path_summary_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "report/format/summary_text.h"
#include "report/text/units.h"

namespace durprobe::report {
namespace {

constexpr const char* kLine = "  {:<11} {}\n";

}  // namespace

void PrintPathSummary(const Target& t, std::ostream& out) {
  if (!t.summary) return;
  const PathSummary& s = *t.summary;
  fmt::print(out, "Summary:\n");
  fmt::print(out, kLine, "path", s.what);
  fmt::print(out, kLine, "durability", s.durability_line);
  fmt::print(out, kLine, "sync cost", SyncCostText(s));
  if (s.sqlite_default || s.sqlite_safe || s.sqlite_fast) {
    std::string label = "SQLite";
    auto line = [&](const std::string& text) {
      fmt::print(out, kLine, label, text);
      label.clear();
    };
    if (s.sqlite_default) line("default " + SettingText(*s.sqlite_default, false));
    if (s.sqlite_safe) line("keeps every commit: " + SettingText(*s.sqlite_safe, true));
    if (!s.sqlite_safe) line("keeps every commit: no measured setting here");
    if (s.sqlite_fast) {
      line("risks the last commits: " + SettingText(*s.sqlite_fast, true) + "; " +
           s.sqlite_fast->loses);
    }
  }
  if (!s.findings.empty()) {
    fmt::print(out, kLine, "matters",
               fmt::format("{} (under Findings)", fmt::join(s.findings, ", ")));
  }
  fmt::print(out, kLine, "next", s.next_step);
}

void PrintAdvice(const Target& t, std::ostream& out) {
  if (t.advice.empty()) return;
  fmt::print(out, "\nSettings to use:\n");
  for (const PathAdvice& a : t.advice) {
    fmt::print(out, kLine, a.system, fmt::format("{}: {} [{}]", a.setting, a.why, a.evidence));
  }
}

void PrintCheckVerdict(const std::vector<CheckResult>& checks, std::ostream& out) {
  if (checks.empty()) return;
  const CheckResult* first = nullptr;
  for (const CheckResult& c : checks) {
    bool failed = c.outcome == CheckOutcome::kFail || c.outcome == CheckOutcome::kError;
    if (failed && first == nullptr) first = &c;
  }
  if (first == nullptr) {
    fmt::print(out, "check: PASS ({} rule(s), Checks below)\n", checks.size());
    return;
  }
  for (const CheckResult& c : checks) {
    if (c.outcome == CheckOutcome::kFail) {
      first = &c;
      break;
    }
  }
  if (first->outcome == CheckOutcome::kError) {
    fmt::print(out, "check: could not evaluate {} on {}: {} (Checks below)\n", first->rule,
               first->path, first->message);
    return;
  }
  std::string value =
      first->measured
          ? fmt::format(": {} {} {}", FormatCheckValue(*first->measured, first->unit),
                        RelationShown(*first), FormatCheckValue(first->threshold, first->unit))
          : ": not measured";
  fmt::print(out, "check: FAIL, first failing rule {} on {}{} (Checks below)\n", first->rule,
             first->path, value);
}

}  // namespace durprobe::report
