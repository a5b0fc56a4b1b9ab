#include "render/console/diff_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cmath>

#include "render/console/causes_console.h"
#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

std::string Percent(double share) {
  double pct = share * 100.0;
  return fmt::format("{:.0f}%", std::fabs(pct) < 0.5 ? 0.0 : pct);
}

void PrintConfigs(const std::vector<explain::ConfigDiff>& configs, std::ostream& out) {
  // On a narrow terminal the configuration's details go first, then the shares (the verdict
  // below names the leading one); the rates, their ratio and the syncs' times stay.
  text::Table table({{"journal", text::Align::kLeft},
                     {"sync", text::Align::kLeft},
                     {"rows", text::Align::kRight, 5},
                     {"stmt", text::Align::kLeft, 6},
                     {"payload", text::Align::kRight, 7},
                     {"commits/s a"},
                     {"commits/s b"},
                     {"b/a"},
                     {"sync a"},
                     {"sync b"},
                     {"latency", text::Align::kRight, 2},
                     {"count", text::Align::kRight, 3},
                     {"non-sync", text::Align::kRight, 4}});
  for (const explain::ConfigDiff& c : configs) {
    // Shares of a gap close to zero are noise divided by noise: not shown.
    bool close = std::fabs(c.commit_ns_b - c.commit_ns_a) < explain::kMeaningfulGap * c.commit_ns_a;
    auto sync = [](double ns) { return ns > 0 ? text::FormatNanos(ns) : std::string("-"); };
    table.AddRow(
        {c.journal_mode, c.synchronous, fmt::format("{}", c.rows_per_commit), c.statement,
         text::FormatBytes(c.payload_bytes), text::FormatRate(c.commits_per_sec_a),
         text::FormatRate(c.commits_per_sec_b),
         c.commits_per_sec_a > 0 ? text::FormatRatio(c.commits_per_sec_b / c.commits_per_sec_a)
                                 : "-",
         sync(c.sync_ns_a), sync(c.sync_ns_b), close ? "~" : Percent(c.share_sync_latency),
         close ? "~" : Percent(c.share_sync_count), close ? "~" : Percent(c.share_non_sync)});
  }
  table.Print(out);
  fmt::print(out,
             "(sync a/b: time of one sync; latency / count / non-sync: shares of the commit-time "
             "gap b - a; they add up to 100%; ~: the two agree within {:.0f}%)\n\n",
             explain::kMeaningfulGap * 100);
}

void PrintProbes(const std::vector<explain::ProbeDiff>& probes, std::ostream& out) {
  text::Table table({{"probe", text::Align::kLeft},
                     {"mean a"},
                     {"mean b"},
                     {"sync a", text::Align::kRight, 2},
                     {"sync b", text::Align::kRight, 2},
                     {"sync", text::Align::kRight, 1},
                     {"rest", text::Align::kRight, 1}});
  for (const explain::ProbeDiff& p : probes) {
    bool close = std::fabs(p.mean_b - p.mean_a) < explain::kMeaningfulGap * p.mean_a;
    table.AddRow({LabelOf(p), text::FormatNanos(p.mean_a), text::FormatNanos(p.mean_b),
                  text::FormatNanos(p.sync_a), text::FormatNanos(p.sync_b),
                  close ? "~" : Percent(p.share_sync), close ? "~" : Percent(p.share_non_sync)});
  }
  table.Print(out);
  fmt::print(out,
             "(mean time per operation; sync / rest: shares of its gap b - a in the sync call and "
             "outside it; ~: the two agree within {:.0f}%)\n\n",
             explain::kMeaningfulGap * 100);
}

void PrintConcurrencyDiff(const std::vector<explain::ConcurrencyDiff>& rows, std::ostream& out) {
  text::Table table({{"concurrent syncers", text::Align::kLeft},
                     {"ops/s a"},
                     {"ops/s b"},
                     {"b/a"},
                     {"sync p50 a", text::Align::kRight, 1},
                     {"sync p50 b", text::Align::kRight, 1}});
  for (const explain::ConcurrencyDiff& c : rows) {
    table.AddRow({fmt::format("{} writers {} {}", c.spec.writers, probes::NameOf(c.spec.mode),
                              probes::NameOf(c.spec.primitive)),
                  text::FormatRate(c.aggregate_a), text::FormatRate(c.aggregate_b),
                  c.aggregate_a > 0 ? text::FormatRatio(c.aggregate_b / c.aggregate_a) : "-",
                  text::FormatNanos(static_cast<double>(c.p50_a)),
                  text::FormatNanos(static_cast<double>(c.p50_b))});
  }
  table.Print(out);
  fmt::print(out, "(aggregate synced ops/s of all writers, and each sync's median)\n\n");
}

}  // namespace

void PrintDiff(const explain::Diff& d, std::ostream& out) {
  // One answer: the factor is where the commit-time gap sits, the causes what put it there.
  if (d.causes.empty()) {
    fmt::print(out, "Summary: the gap is in {} (verdict at the end)\n", NameOf(d.verdict.factor));
  } else {
    fmt::print(out, "Summary: the gap is in {}; its likeliest cause is {} (Why, at the end)\n",
               NameOf(d.verdict.factor), text::EscapeControlChars(d.causes.front().key));
  }
  fmt::print(out, "a = {}\nb = {}\n\n", text::EscapeControlChars(d.a_name),
             text::EscapeControlChars(d.b_name));
  for (const std::string& w : d.warnings)
    fmt::print(out, "warning: {}\n\n", text::EscapeControlChars(w));
  if (d.pairs.empty() && !d.configs.empty()) PrintConfigs(d.configs, out);
  for (const explain::PairDiff& p : d.pairs) {
    if (d.pairs.size() > 1)
      fmt::print(out, "{} (a) vs {} (b)\n", text::EscapeControlChars(p.a_path),
                 text::EscapeControlChars(p.b_path));
    if (!p.configs.empty()) PrintConfigs(p.configs, out);
    if (p.configs.empty() && !p.probes.empty()) PrintProbes(p.probes, out);
    if (!p.concurrency.empty()) PrintConcurrencyDiff(p.concurrency, out);
    if (d.pairs.size() > 1) fmt::print(out, "  verdict: {}\n\n", NameOf(p.verdict.factor));
  }
  if (!d.differences.empty()) {
    fmt::print(out, "Configuration differences:\n");
    for (const explain::Difference& x : d.differences) {
      fmt::print(out, "  {:<36} a: {}\n  {:<36} b: {}\n", text::EscapeControlChars(x.key),
                 text::EscapeControlChars(x.a), "", text::EscapeControlChars(x.b));
    }
    fmt::print(out, "\n");
  }
  fmt::print(out, "verdict: {}\n  {}\n", NameOf(d.verdict.factor),
             text::EscapeControlChars(d.verdict.message));
  PrintCauses(d.causes, out);
}

}  // namespace durprobe::render::console
