#include "report/diff_console.h"

#include <cmath>

#include <fmt/format.h>
#include <fmt/ostream.h>

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
    constexpr const char* kRow = "{:<10} {:<6} {:>5} {:>10} {:>10} {:>10} {:>10} {:>8} {:>8} {:>8}\n";
    fmt::print(out, kRow, "journal", "sync", "rows", "commits/s a", "commits/s b", "us/sync a",
               "us/sync b", "latency", "count", "non-sync");
    for (const ConfigDiff& c : d.configs) {
      // Shares of a gap close to zero are noise divided by noise: not shown.
      bool close = std::fabs(c.commit_ns_b - c.commit_ns_a) < kMeaningfulGap * c.commit_ns_a;
      fmt::print(out, kRow, c.journal_mode, c.synchronous, c.rows_per_commit,
                 FormatRate(c.commits_per_sec_a), FormatRate(c.commits_per_sec_b),
                 fmt::format("{:.1f}", c.sync_ns_a / 1e3), fmt::format("{:.1f}", c.sync_ns_b / 1e3),
                 close ? "~" : Percent(c.share_sync_latency),
                 close ? "~" : Percent(c.share_sync_count), close ? "~" : Percent(c.share_non_sync));
    }
    fmt::print(out, "(latency / count / non-sync: shares of the commit-time gap b - a; they add "
                    "up to 100%; ~: the two agree within {:.0f}%)\n\n", kMeaningfulGap * 100);
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
