// The SQLite section: commit bars, batch sweep, repetitions over the run.
#include "render/html/html_sqlite.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/sqlite_correlation.h"
#include "model/percentiles.h"
#include "render/html/html_page.h"
#include "render/html/html_probes.h"
#include "render/html/html_text.h"
#include "render/html/svg_bars.h"
#include "text/units.h"

namespace durprobe::render::html {
namespace {

using sqlite_bench::CommitResult;

bool Measured(const CommitResult& r) { return r.outcome == probes::Outcome::kOk && r.commits > 0; }

// "WAL/FULL" (+FF with fullfsync), the part of a configuration the batch sweep varies over.
std::string ModeName(const CommitResult& r, bool with_statement) {
  std::string name = fmt::format("{}/{}{}", sqlite_bench::NameOf(r.config.journal),
                                 sqlite_bench::NameOf(r.config.sync),
                                 r.config.fullfsync.value_or(false) ? "+FF" : "");
  if (with_statement) name += fmt::format(" {}", sqlite_bench::NameOf(r.config.statement));
  return name;
}

bool MixedStatements(const std::vector<model::SqliteEntry>& entries) {
  for (const model::SqliteEntry& e : entries) {
    if (e.result.config.statement != entries.front().result.config.statement) return true;
  }
  return false;
}

std::string Count(double v) {
  return v == double(long(v)) ? fmt::format("{:.0f}", v) : fmt::format("{:.2g}", v);
}

// Bars of the mean time per commit (the commit rate's inverse, so the two add up: a part of the
// bar is a part of the rate lost), split into the time inside syncs and the rest.
std::string CommitBars(const std::vector<model::SqliteEntry>& entries, const std::string& id,
                       bool mixed) {
  svg::BarChart chart{
      .id = id,
      .title = "SQLite time per commit, split into time in syncs and time outside",
      .value = {.label = "mean time per commit (1 / commit rate)", .format = NanosTick},
      .segment_names = {"time in syncs", "time outside syncs"}};
  for (const model::SqliteEntry& e : entries) {
    const CommitResult& r = e.result;
    svg::Bar bar{.label = ConfigName(r, mixed)};
    if (!Measured(r)) {
      bar.note = fmt::format("{}: {}", probes::NameOf(r.outcome), r.reason);
      chart.bars.push_back(bar);
      continue;
    }
    const model::SqliteCorrelation& c = e.correlation;
    double total = c.sync_ns + c.non_sync_ns;
    double share = total > 0 ? c.sync_ns / total : 0.0;
    double syncs = analysis::SyncsOf(r).total;
    bar.segments = {{c.sync_ns, fmt::format("{} syncs, {:.0f}%", Count(syncs), share * 100.0)},
                    {c.non_sync_ns, fmt::format("{:.0f}%", (1 - share) * 100.0)}};
    bar.note =
        fmt::format("{}/s, {} syncs/commit", text::FormatRate(r.commits_per_sec), Count(syncs));
    chart.bars.push_back(bar);
  }
  return Figure(svg::Render(chart),
                "One bar per configuration: the mean time of one commit, the inverse of its "
                "commit rate (printed after the bar with the syncs SQLite issued per commit). "
                "The first part is time inside those syncs, the second everything else. A bar "
                "mostly in syncs is bound by the device's flush latency: fewer syncs per commit "
                "(WAL, synchronous=NORMAL, more rows per commit) is what makes it faster; a bar "
                "mostly outside syncs is bound by CPU or the filesystem layer.");
}

std::string BatchSweep(const std::vector<model::SqliteEntry>& entries, const std::string& id,
                       bool mixed) {
  std::map<std::string, svg::Series> by_mode;
  std::vector<std::string> order;
  for (const model::SqliteEntry& e : entries) {
    if (!Measured(e.result)) continue;
    std::string mode = ModeName(e.result, mixed);
    if (!by_mode.count(mode)) order.push_back(mode);
    svg::Series& s = by_mode[mode];
    s.name = mode;
    double x = e.result.config.rows_per_commit, y = e.result.rows_per_sec;
    s.points.push_back({x, y});
    s.marks.push_back({x, y,
                       fmt::format("{} rows per commit: {} rows/s", e.result.config.rows_per_commit,
                                   text::FormatRate(y))});
  }
  svg::LinePlot plot{.id = id,
                     .title = "Rows per second by batch size",
                     .x = {.label = "rows per commit (log scale)", .scale = svg::Scale::kLog},
                     .y = {.label = "rows per second (log scale)",
                           .scale = svg::Scale::kLog,
                           .format = [](double v) { return text::FormatRate(v); }}};
  for (const std::string& mode : order) {
    svg::Series s = by_mode[mode];
    if (s.points.size() < 2) continue;
    auto by_x = [](const svg::Point& a, const svg::Point& b) { return a.x < b.x; };
    std::sort(s.points.begin(), s.points.end(), by_x);
    std::sort(s.marks.begin(), s.marks.end(), by_x);
    plot.series.push_back(std::move(s));
  }
  if (plot.series.empty()) return "";
  return Figure(svg::Render(plot),
                "Rows per second as more rows share one commit: the syncs are paid once per "
                "commit, so the rate climbs until the rows themselves cost more than the syncs.");
}

std::string Table(const std::vector<model::SqliteEntry>& entries, bool mixed) {
  std::string out =
      "<table class=\"sqlite\">\n<thead><tr><th>configuration</th><th class=\"num\">commits/s</th>"
      "<th class=\"num\">rows/s</th><th class=\"num\">mean commit</th><th class=\"num\">p99</th>"
      "<th class=\"num\">syncs/commit</th><th class=\"num\">in syncs</th>"
      "<th class=\"num\">predicted</th><th>power-loss risk</th></tr></thead>\n<tbody>\n";
  for (const model::SqliteEntry& e : entries) {
    const CommitResult& r = e.result;
    const std::string& risk = e.risk.summary;  // as analysis::AssessRisks decided it
    if (!Measured(r)) {
      out += fmt::format("<tr><td>{}</td><td colspan=\"7\">{}: {}</td><td>{}</td></tr>\n",
                         Escape(ConfigName(r, mixed)), probes::NameOf(r.outcome), Escape(r.reason),
                         Escape(risk));
      continue;
    }
    const model::SqliteCorrelation& c = e.correlation;
    double total = c.sync_ns + c.non_sync_ns;
    out += fmt::format(
        "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.0f}%</td>"
        "<td class=\"num\">{}</td><td>{}</td></tr>\n",
        Escape(ConfigName(r, mixed)), text::FormatRate(r.commits_per_sec),
        text::FormatRate(r.rows_per_sec), text::FormatNanos(total),
        text::PercentileCell(model::P99(r.latency)), Count(analysis::SyncsOf(r).total),
        total > 0 ? 100.0 * c.sync_ns / total : 0.0,
        c.available ? text::FormatNanos(c.predicted_ns) : std::string("-"), Escape(risk));
  }
  return out + "</tbody>\n</table>\n";
}

}  // namespace

std::string ConfigName(const CommitResult& r, bool with_statement) {
  return fmt::format("{} x{}", ModeName(r, with_statement), r.config.rows_per_commit);
}

double MiddleSeconds(const sqlite_bench::Repetition& w) {
  return double(w.start_ns + (w.end_ns - w.start_ns) / 2) / 1e9;
}

std::string OverRunPlot(const std::string& id, const std::string& title, const std::string& x_label,
                        const std::vector<RunSeries>& series) {
  svg::LinePlot plot{.id = id,
                     .title = title,
                     .x = {.label = x_label},
                     .y = {.label = "% of the series' median", .format = PercentTick}};
  for (const RunSeries& rs : series) {
    std::vector<double> values;
    for (const auto& [x, v] : rs.samples) values.push_back(v);
    if (values.size() < 2) continue;
    std::nth_element(values.begin(), values.begin() + long(values.size() / 2), values.end());
    double median = values[values.size() / 2];
    if (median <= 0) continue;
    svg::Series s{.name = rs.name};
    for (const auto& [x, v] : rs.samples) {
      s.points.push_back({x, v / median});
      s.marks.push_back(
          {x, v / median, fmt::format("{:.4g}: {} {}", x, text::FormatRate(v), rs.unit)});
    }
    plot.series.push_back(std::move(s));
  }
  if (plot.series.empty()) return "";
  return Figure(svg::Render(plot),
                "Each series against its own median (100%). A steady device keeps every line "
                "near 100%; a dip in a rate (or a rise in a latency) that several series share "
                "at the same point of the run is the device, not the configuration.");
}

std::string SqliteSection(const std::vector<model::SqliteEntry>& entries,
                          const std::string& id_prefix) {
  if (entries.empty()) return "";
  bool mixed = MixedStatements(entries);
  std::string out = "<h3>SQLite commits</h3>\n";
  out += CommitBars(entries, id_prefix + "-commits", mixed);
  out += BatchSweep(entries, id_prefix + "-batch", mixed);
  // On the run's time axis when every repetition kept its window (reports since drift
  // analysis), in the order the run made them otherwise.
  bool timed = std::all_of(entries.begin(), entries.end(), [](const model::SqliteEntry& e) {
    return e.result.repetition_windows.size() == e.result.repetition_commits_per_sec.size();
  });
  std::vector<RunSeries> reps;
  double position = 0;
  for (const model::SqliteEntry& e : entries) {
    const CommitResult& r = e.result;
    RunSeries s{.name = ConfigName(r, mixed), .unit = "commits/s"};
    for (std::size_t i = 0; i < r.repetition_commits_per_sec.size(); ++i) {
      const sqlite_bench::Repetition* w = timed ? &r.repetition_windows[i] : nullptr;
      double x = w ? MiddleSeconds(*w) : ++position;
      s.samples.push_back({x, r.repetition_commits_per_sec[i]});
    }
    reps.push_back(std::move(s));
  }
  out += OverRunPlot(id_prefix + "-reps", "SQLite repetitions over the run",
                     timed ? "seconds since the run started (middle of each repetition)"
                           : "repetition, in the order the run made them",
                     reps);
  return out + Table(entries, mixed);
}

}  // namespace durprobe::render::html
