#include "render/html/html_crashsim.h"

#include <fmt/format.h>

#include "render/html/html_text.h"

namespace durprobe::render::html {

std::string CrashsimSection(const std::vector<sqlite_bench::CrashsimResult>& results) {
  if (results.empty()) return "";
  const sqlite_bench::CrashsimResult& first = results.front();
  std::string out = fmt::format(
      "<h3>Simulated power cuts (crashsim)</h3>\n<p>Seed {}, device guarantees: {}; {} commits "
      "per trial, recovered with plain SQLite. corrupt: integrity_check failed, unreadable, or a "
      "commit half there; lost: acknowledged commits missing after recovery, over the trials "
      "not corrupt (docs/durability.md).</p>\n"
      "<table class=\"crashsim\">\n<thead><tr><th>journal</th><th>sync</th>"
      "<th class=\"num\">rows</th><th class=\"num\">trials</th><th class=\"num\">states</th>"
      "<th class=\"num\">corrupt</th><th class=\"num\">lost (trials)</th>"
      "<th class=\"num\">lost max</th><th class=\"num\">lost mean</th></tr></thead>\n<tbody>\n",
      first.seed, Escape(first.device), first.commits);
  for (const sqlite_bench::CrashsimResult& r : results) {
    out += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td>",
                       sqlite_bench::NameOf(r.config.journal), sqlite_bench::NameOf(r.config.sync),
                       r.config.rows_per_commit);
    if (r.outcome != probes::Outcome::kOk && r.trials == 0) {
      out += fmt::format("<td colspan=\"6\">{}: {}</td></tr>\n", probes::NameOf(r.outcome),
                         Escape(r.reason));
      continue;
    }
    out += fmt::format(
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.2f}</td></tr>\n",
        r.trials, r.crash_states, r.corrupt, r.trials_with_loss, r.lost_commits_max,
        r.lost_commits_mean);
  }
  return out + "</tbody>\n</table>\n";
}

}  // namespace durprobe::render::html
