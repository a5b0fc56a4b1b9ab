#include "render/html/html_reporter.h"

#include <fmt/format.h>

#include "render/durability_lines.h"
#include "render/html/html_compare.h"
#include "render/html/html_concurrency.h"
#include "render/html/html_crashsim.h"
#include "render/html/html_crashtest.h"
#include "render/html/html_fsync_errors.h"
#include "render/html/html_page.h"
#include "render/html/html_probes.h"
#include "render/html/html_sqlite.h"
#include "render/html/html_summary.h"
#include "render/html/html_text.h"
#include "render/html/html_timeline.h"
#include "render/mount_rows.h"

namespace durprobe::render::html {
std::string TargetSection(const model::Target& t, const std::string& id_prefix) {
  std::string out = fmt::format("<section class=\"target\">\n<h2>{}</h2>\n", Escape(t.path));
  out += SummarySection(t);
  if (t.mount) {
    out += "<h3>Mount and device</h3>\n<table class=\"mount\">\n";
    for (const MountRow& row : MountRows(*t.mount)) {
      out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", Escape(row.label), Escape(row.text));
    }
    out += "</table>\n";
  }
  if (t.durability) {
    DurabilityText d = DurabilityTextOf(*t.durability);
    out += fmt::format(
        "<h3>Durability</h3>\n<p class=\"durability {}\"><strong>{}</strong></p>\n"
        "<p class=\"note\">Layers: {}</p>\n",
        NameOf(t.durability->verdict), Escape(d.headline), Escape(d.chain));
    if (!d.to_prove.empty()) {
      out += fmt::format("<p class=\"note\">To prove it: {}</p>\n", Escape(d.to_prove));
    }
  }
  out += "<h3>Findings</h3>\n" + FindingsTable(t.findings);
  if (!t.probes.empty()) out += ProbeSection(t.probes, id_prefix);
  out += ConcurrencySection(t, id_prefix);
  out += SqliteSection(t.sqlite, id_prefix);
  out += CrashsimSection(t.crashsim);
  out += CrashtestSection(t.crashtest, id_prefix);
  out += FsyncErrorsSection(t.fsync_errors);
  out += TimelineSection(t, id_prefix);
  return out + "</section>\n";
}

Status WriteHtmlPage(const std::vector<SourcedReport>& reports, std::ostream& out) {
  std::string title = "durprobe report";
  if (reports.size() == 1 && reports.front().report.targets.size() == 1) {
    title += ": " + reports.front().report.targets.front().path;
  }
  out << PageStart(title) << "<h1>" << Escape(title) << "</h1>\n";
  // Several reports (hosts, or runs over time): their probes on the same axes first.
  std::vector<model::Target> all;
  for (const SourcedReport& r : reports) {
    for (const model::Target& t : r.report.targets) {
      all.push_back(t);
      if (reports.size() > 1) all.back().path = r.source + ": " + t.path;
    }
  }
  if (all.size() > 1) {
    std::string overlays = CdfOverlays(all, "all");
    if (!overlays.empty()) out << "<h2>Every path on the same axes</h2>\n" << overlays;
  }
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const SourcedReport& r = reports[i];
    if (reports.size() > 1) {
      out << fmt::format("<h1 class=\"source\">[{}] {}</h1>\n", i + 1,
                         Escape(r.source.empty() ? "report" : r.source));
    }
    out << ContextBlock(r.report.context, r.source);
    for (std::size_t t = 0; t < r.report.targets.size(); ++t) {
      out << TargetSection(r.report.targets[t], fmt::format("r{}t{}", i, t));
    }
  }
  out << PageEnd();
  return out ? Status::Ok() : Status::Error("could not write the HTML page");
}

Status HtmlReporter::Write(const model::Report& report, std::ostream& out) const {
  return WriteHtmlPage({SourcedReport{"", report}}, out);
}

Status HtmlReporter::Write(const SavedReports& saved, std::ostream& out) const {
  return WriteHtmlPage(saved.reports, out);
}

}  // namespace durprobe::render::html
