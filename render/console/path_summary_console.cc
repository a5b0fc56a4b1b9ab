#include "render/console/path_summary_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <sstream>
#include <string_view>
#include <utility>

#include "render/summary_text.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

// One labelled line; its text carries paths and saved reports' strings, so it is escaped.
void Line(std::ostream& out, const std::string& label, const std::string& text) {
  fmt::print(out, "  {:<11} {}\n", text::EscapeControlChars(label), text::EscapeControlChars(text));
}

// Words of the kernel's or durprobe's own that the summary or the findings under it may use,
// each explained in a few plain words on the summary's last line, before a reader meets them.
constexpr std::pair<std::string_view, std::string_view> kTerms[] = {
    {"FUA", "FUA = Force Unit Access: the device puts the write on stable media itself"},
    {"deciding layer", "deciding layer = the weakest layer under the path, which sets the verdict"},
    {" x1", "x1 = one row per commit (--batch)"},
    {"reused 100B", "reused 100B = one prepared INSERT, 100-byte rows"},
    {"reference probe",
     "reference probe = a small fdatasync repeated between steps to follow "
     "the device"},
    {" 1/", "1/12x = a twelfth"},
};

// The terms text says, as "FUA = ...; x1 = ...", or "".
std::string TermsIn(const std::string& text) {
  std::string out;
  for (const auto& [word, meaning] : kTerms) {
    if (text.find(word) == std::string::npos) continue;
    out += (out.empty() ? "" : "; ") + std::string(meaning);
  }
  return out;
}

}  // namespace

// The durability, sync cost and SQLite setting lines: the summary's answer, printed in full at
// the top and again as the recap at the end.
void PrintAnswerLines(const model::PathSummary& s, std::ostream& out) {
  Line(out, "durability", s.durability_line);
  Line(out, "sync cost", SyncCostText(s));
  if (s.sqlite_default || s.sqlite_safe || s.sqlite_fast) {
    std::string label = "SQLite";
    auto line = [&](const std::string& text) {
      Line(out, label, text);
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
}

void PrintPathSummary(const model::Target& t, std::ostream& out) {
  if (!t.summary) return;
  const model::PathSummary& s = *t.summary;
  std::ostringstream body;
  Line(body, "path", s.what);
  PrintAnswerLines(s, body);
  if (!s.findings.empty()) {
    Line(body, "matters", fmt::format("{} (under Findings)", fmt::join(s.findings, ", ")));
  }
  Line(body, "next", s.next_step);
  fmt::print(out, "Summary:\n{}", body.str());
  std::string said = body.str();
  for (const model::Finding& f : t.findings) said += f.message + "\n";
  if (std::string terms = TermsIn(said); !terms.empty()) Line(out, "terms", terms);
}

void PrintAdvice(const model::Target& t, std::ostream& out) {
  if (t.advice.empty()) return;
  fmt::print(out, "\nSettings to use:\n");
  for (const model::PathAdvice& a : t.advice) {
    Line(out, a.system, fmt::format("{}: {} [{}]", a.setting, a.why, a.evidence));
  }
}

void PrintRecap(const model::Report& report, std::ostream& out) {
  bool any = std::any_of(report.targets.begin(), report.targets.end(),
                         [](const model::Target& t) { return t.summary.has_value(); });
  if (!any && report.checks.empty()) return;
  fmt::print(out, "\nRecap (the Summary above, in short):\n");
  for (const model::Target& t : report.targets) {
    if (!t.summary) continue;
    fmt::print(out, "{}\n", text::EscapeControlChars(t.path));
    PrintAnswerLines(*t.summary, out);
  }
  PrintCheckVerdict(report.checks, out, "above");
}

void PrintCheckVerdict(const std::vector<model::CheckResult>& checks, std::ostream& out,
                       std::string_view where) {
  if (checks.empty()) return;
  const model::CheckResult* first = nullptr;
  for (const model::CheckResult& c : checks) {
    bool failed =
        c.outcome == model::CheckOutcome::kFail || c.outcome == model::CheckOutcome::kError;
    if (failed && first == nullptr) first = &c;
  }
  if (first == nullptr) {
    // An unstable rule exits 2 (cli/cmd_check.cc), so the headline never says PASS over it.
    auto unstable = std::find_if(checks.begin(), checks.end(), [](const model::CheckResult& c) {
      return c.outcome == model::CheckOutcome::kUnstable;
    });
    if (unstable != checks.end()) {
      fmt::print(out, "check: UNSTABLE, rule {} on {}: {} (Checks {})\n",
                 text::EscapeControlChars(unstable->rule), text::EscapeControlChars(unstable->path),
                 text::EscapeControlChars(unstable->message), where);
      return;
    }
    // A pass with a warning (PASS*: an unproven path) is said in the headline, never hidden
    // behind a plain PASS.
    auto warned = std::find_if(checks.begin(), checks.end(),
                               [](const model::CheckResult& c) { return c.warning; });
    if (warned != checks.end()) {
      const auto n = std::count_if(checks.begin(), checks.end(),
                                   [](const model::CheckResult& c) { return c.warning; });
      fmt::print(out,
                 "check: PASS* ({} rule(s), {} passed with a warning: rule {} on {}: {}; "
                 "Checks {})\n",
                 checks.size(), n, text::EscapeControlChars(warned->rule),
                 text::EscapeControlChars(warned->path), text::EscapeControlChars(warned->message),
                 where);
      return;
    }
    fmt::print(out, "check: PASS ({} rule(s), Checks {})\n", checks.size(), where);
    return;
  }
  for (const model::CheckResult& c : checks) {
    if (c.outcome == model::CheckOutcome::kFail) {
      first = &c;
      break;
    }
  }
  if (first->outcome == model::CheckOutcome::kError) {
    fmt::print(out, "check: could not evaluate {} on {}: {} (Checks {})\n",
               text::EscapeControlChars(first->rule), text::EscapeControlChars(first->path),
               text::EscapeControlChars(first->message), where);
    return;
  }
  std::string value =
      first->measured
          ? fmt::format(": {} {} {}", model::FormatCheckValue(*first->measured, first->unit),
                        RelationShown(*first),
                        model::FormatCheckValue(first->threshold, first->unit))
          : ": not measured";
  fmt::print(out, "check: FAIL, first failing rule {} on {}{} (Checks {})\n",
             text::EscapeControlChars(first->rule), text::EscapeControlChars(first->path),
             text::EscapeControlChars(value), where);
}

}  // namespace durprobe::render::console
