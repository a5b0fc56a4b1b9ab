#include "report/diff_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cmath>

#include "report/table.h"
#include "report/units.h"

namespace durprobe::report {
namespace {

std::string Percent(double share) {
  double pct = share * 100.0;
  return fmt::format("{:.0f}%", std::fabs(pct) < 0.5 ? 0.0 : pct);
}

}  // namespace

void PrintDiff(const Diff& d, std::ostream& out) {
  fmt::print(out, "a = {}\nb = {}\n\n", d.a_name, d.b_name);
  if (!d.configs.empty()) {
    Table table({{"journal", Align::kLeft},
                 {"sync", Align::kLeft},
                 {"rows"},
                 {"commits/s a"},
                 {"commits/s b"},
                 {"b/a"},
                 {"sync a"},
                 {"sync b"},
                 {"latency"},
                 {"count"},
                 {"non-sync"}});
    for (const ConfigDiff& c : d.configs) {
      // Shares of a gap close to zero are noise divided by noise: not shown.
      bool close = std::fabs(c.commit_ns_b - c.commit_ns_a) < kMeaningfulGap * c.commit_ns_a;
      auto sync = [](double ns) { return ns > 0 ? FormatNanos(ns) : std::string("-"); };
      table.AddRow(
          {c.journal_mode, c.synchronous, fmt::format("{}", c.rows_per_commit),
           FormatRate(c.commits_per_sec_a), FormatRate(c.commits_per_sec_b),
           c.commits_per_sec_a > 0 ? FormatRatio(c.commits_per_sec_b / c.commits_per_sec_a) : "-",
           sync(c.sync_ns_a), sync(c.sync_ns_b), close ? "~" : Percent(c.share_sync_latency),
           close ? "~" : Percent(c.share_sync_count), close ? "~" : Percent(c.share_non_sync)});
    }
    table.Print(out);
    fmt::print(out,
               "(sync a/b: time of one sync; latency / count / non-sync: shares of the "
               "commit-time gap b - a; they add up to 100%; ~: the two agree within {:.0f}%)\n\n",
               kMeaningfulGap * 100);
  }
  if (!d.differences.empty()) {
    fmt::print(out, "Configuration differences:\n");
    for (const Difference& x : d.differences) {
      fmt::print(out, "  {:<36} a: {}\n  {:<36} b: {}\n", x.key, x.a, "", x.b);
    }
    fmt::print(out, "\n");
  }
  fmt::print(out, "verdict: {}\n  {}\n", d.verdict.factor, d.verdict.message);
}

}  // namespace durprobe::report
