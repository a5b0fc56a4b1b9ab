#include "render/html/html_summary.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "render/html/html_text.h"
#include "render/summary_text.h"

namespace durprobe::render::html {
namespace {

std::string Line(const std::string& label, const std::string& text) {
  return fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", Escape(label), Escape(text));
}

}  // namespace

std::string SummarySection(const model::Target& t) {
  std::string out;
  if (t.summary) {
    const model::PathSummary& s = *t.summary;
    out += "<div class=\"summary\">\n<h3>Summary</h3>\n<table>\n";
    out += Line("path", s.what) + Line("durability", s.durability_line) +
           Line("sync cost", SyncCostText(s));
    if (s.sqlite_default) out += Line("SQLite default", SettingText(*s.sqlite_default, false));
    if (s.sqlite_default || s.sqlite_safe || s.sqlite_fast) {
      out += Line("keeps every commit",
                  s.sqlite_safe ? SettingText(*s.sqlite_safe, true) : "no measured setting here");
    }
    if (s.sqlite_fast) {
      out += Line("risks the last commits",
                  SettingText(*s.sqlite_fast, true) + "; " + s.sqlite_fast->loses);
    }
    if (!s.findings.empty()) {
      out += Line("matters", fmt::format("{} (under Findings)", fmt::join(s.findings, ", ")));
    }
    out += Line("next", s.next_step) + "</table>\n</div>\n";
  }
  if (!t.advice.empty()) {
    out +=
        "<h3>Settings to use</h3>\n<table class=\"advice\">\n<thead><tr><th>for</th>"
        "<th>setting</th><th>why</th><th>measured</th></tr></thead>\n<tbody>\n";
    for (const model::PathAdvice& a : t.advice) {
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                         Escape(a.system), Escape(a.setting), Escape(a.why), Escape(a.evidence));
    }
    out += "</tbody>\n</table>\n";
  }
  return out;
}

}  // namespace durprobe::render::html
