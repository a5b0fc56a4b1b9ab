#include "render/html/html_crashtest.h"

#include <fmt/format.h>

#include "render/html/html_page.h"
#include "render/html/html_text.h"
#include "render/html/svg_plot.h"

namespace durprobe::render::html {
namespace {

using sqlite_bench::CrashtestResult;

std::string Label(const CrashtestResult& r) {
  return fmt::format("{}/{} x{}", sqlite_bench::NameOf(r.config.journal),
                     sqlite_bench::NameOf(r.config.sync), r.config.rows_per_commit);
}

std::string Agrees(const CrashtestResult& r) {
  if (!r.agrees_with_crashsim) return "-";
  return *r.agrees_with_crashsim ? "agrees" : "differs";
}

std::string CountTick(double v) { return fmt::format("{:.0f}", v); }

// The commits acknowledged by each cut and the commits its recovered database held; a corrupt
// state is a marker at zero with a note.
std::string TimelinePlot(const CrashtestResult& r, const std::string& id) {
  if (r.timeline.size() < 2) return "";
  svg::LinePlot plot{.id = id,
                     .title = "Commits a power cut keeps, " + Label(r),
                     .x = {.label = "the flush the power went at", .format = CountTick},
                     .y = {.label = "commits", .format = CountTick, .min = 0.0}};
  svg::Series acked{.name = "acknowledged by then", .reference = true};
  svg::Series kept{.name = "found after recovery"};
  svg::Series corrupt{.name = "corrupt (mount or integrity_check failed)"};
  for (const sqlite_bench::CrashtestMoment& m : r.timeline) {
    const double x = static_cast<double>(m.flush);
    acked.points.push_back({x, static_cast<double>(m.acknowledged)});
    if (m.corrupt) {
      corrupt.marks.push_back({x, 0.0, fmt::format("flush {}: corrupt", m.flush)});
      continue;
    }
    kept.points.push_back({x, static_cast<double>(m.present)});
    if (m.present < m.acknowledged) {
      kept.marks.push_back({x, static_cast<double>(m.present),
                            fmt::format("flush {}: {} of {} acknowledged commits found", m.flush,
                                        m.present, m.acknowledged)});
    }
  }
  plot.series.push_back(std::move(acked));
  if (!kept.points.empty()) plot.series.push_back(std::move(kept));
  if (!corrupt.marks.empty()) plot.series.push_back(std::move(corrupt));
  return Figure(svg::Render(plot),
                fmt::format("{}: for each flush of the workload, the disk as that flush left it "
                            "(nothing of the cache kept). Where the solid line is under the "
                            "dashed one, a cut there lost acknowledged commits (marked).",
                            Escape(Label(r))));
}

}  // namespace

std::string CrashtestSection(const std::vector<CrashtestResult>& results,
                             const std::string& id_prefix) {
  if (results.empty()) return "";
  const CrashtestResult& first = results.front();
  std::string out = fmt::format(
      "<h3>Power cuts on the crash device (crashtest)</h3>\n<p>{}{}, device {}, seed {}. Each "
      "state is the disk at a flush, with a seeded choice of the writes still in the device's "
      "cache, mounted (the filesystem's recovery runs) and opened with plain SQLite. corrupt: "
      "the mount failed, integrity_check failed or a commit is half there; lost: acknowledged "
      "commits missing (docs/crashtest.md).</p>\n"
      "<table class=\"crashtest\">\n<thead><tr><th>journal</th><th>sync</th>"
      "<th class=\"num\">rows</th><th class=\"num\">commits</th><th class=\"num\">flushes</th>"
      "<th class=\"num\">states</th><th class=\"num\">distinct</th><th class=\"num\">corrupt</th>"
      "<th class=\"num\">lost (states)</th><th class=\"num\">lost max</th><th>crashsim</th>"
      "</tr></thead>\n<tbody>\n",
      Escape(first.fs), first.fs_options.empty() ? "" : " -o " + Escape(first.fs_options),
      Escape(first.device), first.seed);
  std::string notes, plots;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CrashtestResult& r = results[i];
    out += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td>",
                       sqlite_bench::NameOf(r.config.journal), sqlite_bench::NameOf(r.config.sync),
                       r.config.rows_per_commit);
    if (r.outcome != probes::Outcome::kOk && r.states == 0) {
      out += fmt::format("<td colspan=\"8\">{}: {}</td></tr>\n", probes::NameOf(r.outcome),
                         Escape(r.reason));
      continue;
    }
    out += fmt::format(
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td>{}</td></tr>\n",
        r.commits, r.flushes, r.states, r.distinct, r.corrupt, r.lost_states, r.lost_max,
        Agrees(r));
    for (const sqlite_bench::CrashtestExample& e : r.examples) {
      notes += fmt::format(
          "<li>{}: <code>{}</code>{}: {}</li>\n", Escape(Label(r)), Escape(e.state),
          r.log.empty() ? "" : " (log <code>" + Escape(r.log) + "</code>)", Escape(e.outcome));
    }
    plots += TimelinePlot(r, fmt::format("{}-crashtest-{}", id_prefix, i));
  }
  out += "</tbody>\n</table>\n";
  if (!notes.empty()) {
    out +=
        "<p class=\"note\">States to rebuild (durprobe crashtest --state WORDS --log "
        "LOG):</p>\n<ul>\n" +
        notes + "</ul>\n";
  }
  return out + plots;
}

}  // namespace durprobe::render::html
