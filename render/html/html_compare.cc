// compare's and diff's pages for the HTML reporter (render/html/html_reporter.h), and the
// probe overlays they share with a page of several saved reports.
#include "render/html/html_compare.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "explain/compare_analysis.h"
#include "explain/diff_analysis.h"
#include "render/html/html_page.h"
#include "render/html/html_probes.h"
#include "render/html/html_reporter.h"
#include "render/html/html_text.h"
#include "render/html/svg_bars.h"
#include "text/units.h"

namespace durprobe::render::html {
namespace {

std::string SignedNanos(double ns) {
  return ns < 0 ? fmt::format("-{}", NanosTick(-ns)) : NanosTick(ns);
}

std::string PathName(const std::vector<model::Target>& targets, std::size_t i) {
  return fmt::format("[{}] {}", i + 1, targets[i].path);
}

// One group per row label, one bar per path; each path its own segment index (its own fill
// pattern and legend entry), notes with the value and its ratio against the first path.
struct GroupedRow {
  std::string label;
  std::vector<std::optional<double>> values;
};

std::string GroupedBars(const std::string& id, const std::string& title,
                        const std::vector<model::Target>& targets,
                        const std::vector<GroupedRow>& rows) {
  svg::BarChart chart{
      .id = id, .title = title, .value = {.label = "median latency", .format = NanosTick}};
  for (std::size_t i = 0; i < targets.size(); ++i)
    chart.segment_names.push_back(PathName(targets, i));
  for (const GroupedRow& row : rows) {
    for (std::size_t i = 0; i < row.values.size(); ++i) {
      svg::Bar bar{.group = row.label, .label = fmt::format("[{}]", i + 1)};
      if (!row.values[i]) {
        bar.note = "not measured";
      } else {
        bar.segments.resize(i + 1);
        bar.segments[i] = {*row.values[i], ""};  // the note says the value
        bar.note = text::FormatNanos(*row.values[i]);
        if (i > 0 && row.values[0] && *row.values[0] > 0) {
          bar.note += fmt::format(" ({:.3g}x)", *row.values[i] / *row.values[0]);
        }
      }
      chart.bars.push_back(bar);
    }
  }
  return svg::Render(chart);
}

std::vector<GroupedRow> ProbeRows(const std::vector<model::Target>& targets) {
  std::vector<GroupedRow> rows;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    for (const probes::ProbeResult& r : targets[i].probes) {
      std::string name = ProbeName(r);
      if (!index.count(name)) {
        index[name] = rows.size();
        rows.push_back({name, std::vector<std::optional<double>>(targets.size())});
      }
      if (r.outcome == probes::Outcome::kOk && r.ops > 0) {
        rows[index[name]].values[i] = double(r.latency.p50);
      }
    }
  }
  return rows;
}

}  // namespace

std::string CdfOverlays(const std::vector<model::Target>& targets, const std::string& id_prefix) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<svg::Series>> by_probe;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    for (const probes::ProbeResult& r : targets[i].probes) {
      if (r.spec.primitive == probes::Primitive::kNone) continue;
      svg::Series s = CdfSeries(r, fmt::format("[{}] {}", i + 1, targets[i].path));
      if (s.points.empty()) continue;
      std::string name = ProbeName(r);
      if (!by_probe.count(name)) order.push_back(name);
      by_probe[name].push_back(std::move(s));
    }
  }
  std::string out;
  int n = 0;
  for (const std::string& name : order) {
    if (by_probe[name].size() < 2) continue;
    svg::LinePlot plot{
        .id = fmt::format("{}-cdf-{}", id_prefix, n++),
        .title = "Latency CDF of " + name + " on each path",
        .x = {.label = "latency of one operation (log scale)",
              .scale = svg::Scale::kLog,
              .format = NanosTick},
        .y = {.label = "operations at or below", .format = PercentTick, .min = 0.0, .max = 1.0},
        .series = by_probe[name]};
    out += Figure(svg::Render(plot), Escape(plot.title) +
                                         ": the same axes for every path; the horizontal gap "
                                         "between two lines at 50% is the ratio of medians.");
  }
  return out;
}

Status HtmlReporter::Write(const explain::Comparison& c, std::ostream& out) const {
  out << PageStart("durprobe compare") << "<h1>durprobe compare</h1>\n";
  out << ContextBlock(c.context, "");
  out << "<ol class=\"paths\">\n";
  for (const model::Target& t : c.targets)
    out << "<li><code>" << Escape(t.path) << "</code></li>\n";
  out << "</ol>\n<h2>Verdicts</h2>\n<ul>\n";
  for (const explain::Verdict& v : c.verdicts) {
    out << fmt::format("<li><code>{}</code>: <strong>{}</strong>. {}</li>\n", Escape(v.path),
                       Escape(VerdictHeadline(v)), Escape(v.message));
  }
  out << "</ul>\n<h2>Where the difference comes from</h2>\n";
  std::vector<GroupedRow> parts = {{"per sync", {}}, {"per operation", {}}, {"metadata", {}}};
  for (const model::Target& t : c.targets) {
    explain::Components comp = explain::ComponentsOf(t);
    parts[0].values.push_back(comp.per_sync_ns);
    parts[1].values.push_back(comp.per_op_ns);
    parts[2].values.push_back(comp.metadata_ns);
  }
  bool any_part = false;
  for (const GroupedRow& row : parts) {
    for (const std::optional<double>& v : row.values) any_part = any_part || v.has_value();
  }
  if (any_part) {
    out << Figure(GroupedBars("cmp-parts", "Cost components per path", c.targets, parts),
                  "Per sync: a write + fdatasync minus the plain write; per operation: the calls "
                  "every database operation makes; metadata: create, rename and the directory "
                  "sync. Ratios against path [1].");
  } else {
    out << "<p class=\"note\">Not measured: the components need compare's probes and "
           "per-operation costs.</p>\n";
  }
  out << "<h2>Median latency per probe</h2>\n";
  out << Figure(GroupedBars("cmp-probes", "Median latency per probe and path", c.targets,
                            ProbeRows(c.targets)),
                "One group per probe, one bar per path, ratios against path [1].");
  out << CdfOverlays(c.targets, "cmp");
  for (std::size_t t = 0; t < c.targets.size(); ++t) {
    out << TargetSection(c.targets[t], fmt::format("t{}", t));
  }
  out << PageEnd();
  return out ? Status::Ok() : Status::Error("could not write the HTML page");
}

Status HtmlReporter::Write(const explain::Diff& d, std::ostream& out) const {
  out << PageStart("durprobe diff") << "<h1>durprobe diff</h1>\n";
  out << "<table class=\"context\">\n" << Row("A", d.a_name) << Row("B", d.b_name) << "</table>\n";
  out << fmt::format("<p class=\"banner\">Verdict: <strong>{}</strong>. {}</p>\n",
                     NameOf(d.verdict.factor), Escape(d.verdict.message));
  if (!d.configs.empty()) {
    svg::BarChart rates{.id = "diff-rates",
                        .title = "Commit rate of each configuration on A and on B",
                        .value = {.label = "commits per second",
                                  .format = [](double v) { return text::FormatRate(v); }},
                        .segment_names = {"A: " + d.a_name, "B: " + d.b_name}};
    svg::BarChart gap{.id = "diff-attribution",
                      .title = "Where the commit-time gap (B - A) comes from",
                      .value = {.label = "change in time per commit, B - A", .format = SignedNanos},
                      .segment_names = {"sync latency", "sync count", "non-sync time"}};
    for (const explain::ConfigDiff& c : d.configs) {
      std::string name = fmt::format("{}/{} x{}", c.journal_mode, c.synchronous, c.rows_per_commit);
      rates.bars.push_back({.group = name,
                            .label = "A",
                            .segments = {{c.commits_per_sec_a, ""}},
                            .note = text::FormatRate(c.commits_per_sec_a) + "/s"});
      rates.bars.push_back({.label = "B",
                            .segments = {{0, ""}, {c.commits_per_sec_b, ""}},
                            .note = text::FormatRate(c.commits_per_sec_b) + "/s"});
      rates.bars.back().group = name;
      double delta = c.commit_ns_b - c.commit_ns_a;
      auto part = [&](double share) {
        return svg::Segment{share * delta, fmt::format("{:.0f}%", share * 100.0)};
      };
      gap.bars.push_back({.label = name,
                          .segments = {part(c.share_sync_latency), part(c.share_sync_count),
                                       part(c.share_non_sync)},
                          .note = fmt::format("B {} by {}", delta > 0 ? "slower" : "faster",
                                              text::FormatNanos(std::abs(delta)))});
    }
    out << Figure(svg::Render(rates), "Commit rate per configuration, A above B.");
    out << Figure(svg::Render(gap),
                  "Each bar is the change in mean commit time from A to B, split into its causes: "
                  "a slower (or faster) sync, more (or fewer) syncs per commit, and the time "
                  "outside syncs. Parts right of zero made B slower; parts left of it made B "
                  "faster. Percentages are shares of the gap.");
  }
  if (!d.differences.empty()) {
    out << "<h2>Differences</h2>\n<table class=\"differences\">\n<thead><tr><th>key</th><th>A</th>"
           "<th>B</th></tr></thead>\n<tbody>\n";
    for (const explain::Difference& diff : d.differences) {
      out << fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>\n",
                         Escape(diff.key), Escape(diff.a), Escape(diff.b));
    }
    out << "</tbody>\n</table>\n";
  }
  out << PageEnd();
  return out ? Status::Ok() : Status::Error("could not write the HTML page");
}

}  // namespace durprobe::render::html
