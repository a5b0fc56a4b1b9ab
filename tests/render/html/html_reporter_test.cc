// The HTML page of a real saved report (tests/fixtures/html/report.json, from `durprobe run
// --quick --sizes 4k,64k --batch 1,10 --journal-modes delete,wal --synchronous full,normal`):
// strict XML, the expected plots and series, every report string escaped, nothing external.
#include "render/html/html_reporter.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>

#include "codec/json_reader.h"
#include "explain/compare_analysis.h"
#include "explain/diff_analysis.h"
#include "output/formats.h"
#include "tests/fixtures.h"
#include "tests/render/flush_samples.h"
#include "tests/xml_page.h"

namespace durprobe::render::html {
namespace {

using testing_support::ReadFixture;
using testing_support::XmlPage;

model::Report FixtureReport() {
  Result<model::Report> report = codec::FromJson(ReadFixture("html/report.json"));
  EXPECT_TRUE(report.ok()) << report.status().message();
  return report.ok() ? *report : model::Report{};
}

std::string Page(const model::Report& report) {
  std::ostringstream out;
  EXPECT_TRUE(HtmlReporter().Write(report, out).ok());
  return out.str();
}

#define REQUIRE_LIBXML2() \
  if (!XmlPage::available()) GTEST_SKIP() << XmlPage::skip_reason()

TEST(HtmlReporterTest, PageIsStrictXmlWithNoScriptAndNothingExternal) {
  std::string html = Page(FixtureReport());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n", 0), 0u);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("url(http"), std::string::npos);
  REQUIRE_LIBXML2();
  XmlPage page(html);
  ASSERT_TRUE(page.parsed()) << page.error();
  EXPECT_EQ(page.Count("//h:link | //h:img | //h:iframe | //h:object"), 0);
  EXPECT_EQ(page.Count("//*[@href and not(starts-with(@href, '#'))]"), 0);
  EXPECT_EQ(page.Count("//h:style"), 1);
  EXPECT_NE(page.Text("//h:style").find("prefers-color-scheme: dark"), std::string::npos);
  EXPECT_NE(page.Text("//h:style").find("@media print"), std::string::npos);
}

TEST(HtmlReporterTest, CdfPerPatternHasEveryPrimitiveAndThePlainWriteAsReference) {
  REQUIRE_LIBXML2();
  XmlPage page(Page(FixtureReport()));
  ASSERT_TRUE(page.parsed()) << page.error();
  for (const char* pattern : {"overwrite", "append"}) {
    std::string plot = fmt::format("//s:svg[@data-plot='r0t0-cdf-{}']", pattern);
    EXPECT_EQ(page.Count(plot + "//s:path[@data-series]"), 4) << pattern;
    for (const char* prim : {"fsync", "fdatasync", "odsync"}) {
      EXPECT_EQ(
          page.Count(fmt::format("{}//s:path[@data-series='{} {} 4 KiB']", plot, prim, pattern)), 1)
          << prim << " " << pattern;
    }
    EXPECT_EQ(page.Count(fmt::format(
                  "{}//s:g[contains(@class, 'ref')]/s:path[@data-series='none {} 4 KiB']", plot,
                  pattern)),
              1);
    // Markers at p50, p90, p99, p99.9 where the operations support them: all four on the plain
    // write (thousands of operations), p50 and p90 on the syncs (15 to 30 operations each).
    EXPECT_EQ(page.Count(plot + "//s:g[not(@data-legend)]/s:path[@class='mark']"), 4 + 3 * 2)
        << pattern;
  }
  EXPECT_EQ(page.Count("//s:svg[@data-plot='r0t0-cdf-dir']//s:path[@data-series]"), 2);
}

TEST(HtmlReporterTest, SizeSweepHasOneSeriesPerPrimitiveAndPattern) {
  REQUIRE_LIBXML2();
  XmlPage page(Page(FixtureReport()));
  ASSERT_TRUE(page.parsed()) << page.error();
  EXPECT_EQ(page.Count("//s:svg[@data-plot='r0t0-sizes']//s:path[@data-series]"), 8);
  EXPECT_EQ(page.Count("//s:svg[@data-plot='r0t0-sizes']//s:path[@data-series='fdatasync append']"),
            1);
}

TEST(HtmlReporterTest, SqlitePlotsHaveEveryConfiguration) {
  REQUIRE_LIBXML2();
  XmlPage page(Page(FixtureReport()));
  ASSERT_TRUE(page.parsed()) << page.error();
  const std::string bars = "//s:svg[@data-plot='r0t0-commits']";
  EXPECT_EQ(page.Count(bars + "//s:g[@class='bar']"), 8);
  EXPECT_EQ(page.Count(bars + "//s:rect[@data-series='time outside syncs']"), 8);
  // Syncs per commit are printed with each bar: DELETE/FULL x1 syncs 4 times per commit here.
  EXPECT_NE(page.Text(bars + "//s:g[@data-bar='DELETE/FULL x1']/s:text[@class='note']")
                .find("syncs/commit"),
            std::string::npos);
  // Batch sweep: one line per journal mode / synchronous pair, over rows per commit 1 and 10.
  EXPECT_EQ(page.Count("//s:svg[@data-plot='r0t0-batch']//s:path[@data-series]"), 4);
  EXPECT_EQ(page.Count("//s:svg[@data-plot='r0t0-batch']//s:path[@data-series='WAL/NORMAL']"), 1);
  // Repetitions over the run: one series per configuration, a marker per repetition.
  EXPECT_EQ(page.Count("//s:svg[@data-plot='r0t0-reps']//s:path[@data-series]"), 8);
  EXPECT_EQ(
      page.Count("//s:svg[@data-plot='r0t0-reps']//s:g[not(@data-legend)]/s:path[@class='mark']"),
      40);
}

TEST(HtmlReporterTest, FindingsCarryTheirSeverityAsWordAndClass) {
  REQUIRE_LIBXML2();
  model::Report report = FixtureReport();
  report.targets[0].findings.push_back({model::Severity::kFail, "x_fail", "broken"});
  XmlPage page(Page(report));
  ASSERT_TRUE(page.parsed()) << page.error();
  EXPECT_EQ(page.Count("//h:tr[@class='sev-fail']"), 1);
  EXPECT_NE(page.Text("//h:tr[@class='sev-fail']/h:td[@class='sev']").find("fail"),
            std::string::npos);
  EXPECT_EQ(page.Count("//h:table[@class='mount']//h:th[.='filesystem']"), 1);
}

TEST(HtmlReporterTest, EveryReportStringIsEscaped) {
  REQUIRE_LIBXML2();
  model::Report report = FixtureReport();
  const std::string hostile = "/mnt/<script>alert(1)</script> & \"q\" 'a'\x01\xFF";
  report.targets[0].path = hostile;
  report.targets[0].findings.push_back({model::Severity::kWarn, "c<o>de", hostile});
  report.context.command_line = "durprobe run '/mnt/<x>' --json a&b.json";
  report.context.host = "</td></tr></table>";
  XmlPage page(Page(report));
  ASSERT_TRUE(page.parsed()) << page.error();
  EXPECT_EQ(page.Count("//h:script"), 0);
  const std::string shown = "/mnt/<script>alert(1)</script> & \"q\" 'a'\xEF\xBF\xBD";
  EXPECT_EQ(page.Text("//h:section/h:h2"), shown);
  EXPECT_EQ(page.Text("//h:pre[@class='command']"), report.context.command_line);
  EXPECT_EQ(page.Count("//h:td[.='</td></tr></table>']"), 1);
  EXPECT_EQ(page.Count("//h:code[.='c<o>de']"), 1);
}

TEST(HtmlReporterTest, ComparisonDrawsThePathsOnTheSameAxesWithRatios) {
  REQUIRE_LIBXML2();
  model::Report report = FixtureReport();
  explain::Comparison c{.context = report.context,
                        .targets = {report.targets[0], report.targets[0]}};
  c.targets[1].path = "/other";
  c.verdicts = explain::CompareVerdicts(c.targets);
  std::ostringstream out;
  ASSERT_TRUE(HtmlReporter().Write(c, out).ok());
  XmlPage page(out.str());
  ASSERT_TRUE(page.parsed()) << page.error();
  // The run measured no per-operation costs: no component bars, a note saying so.
  EXPECT_EQ(page.Count("//s:svg[@data-plot='cmp-parts']"), 0);
  EXPECT_EQ(page.Count("//h:p[@class='note' and starts-with(., 'Not measured: the components')]"),
            1);
  // Every probe but the plain writes has a CDF overlay with one line per path.
  EXPECT_EQ(page.Count("//s:svg[starts-with(@data-plot, 'cmp-cdf-')]"), 14);
  EXPECT_EQ(page.Count("//s:svg[@data-plot='cmp-cdf-0']//s:path[@data-series='[2] /other']"), 1);
  // Median bars: a bar per path per probe, the second labelled with its ratio to the first.
  EXPECT_EQ(page.Count("//s:svg[@data-plot='cmp-probes']//s:g[@class='bar']"), 36);
  EXPECT_NE(
      page.Text("//s:svg[@data-plot='cmp-probes']//s:g[@data-bar='[2]']/s:text[@class='note']")
          .find("(1x)"),
      std::string::npos);
}

TEST(HtmlReporterTest, DiffDrawsTheAttributionAsAStackedBarPerConfiguration) {
  REQUIRE_LIBXML2();
  Result<model::Report> a = codec::FromJson(ReadFixture("diff/a.json"));
  Result<model::Report> b = codec::FromJson(ReadFixture("diff/b_sync_latency.json"));
  ASSERT_TRUE(a.ok() && b.ok());
  Result<explain::Diff> diffed = explain::DiffReports(*a, *b, "a.json", "b.json");
  ASSERT_TRUE(diffed.ok()) << diffed.status().message();
  const explain::Diff& diff = *diffed;
  ASSERT_FALSE(diff.configs.empty());
  std::ostringstream out;
  ASSERT_TRUE(HtmlReporter().Write(diff, out).ok());
  XmlPage page(out.str());
  ASSERT_TRUE(page.parsed()) << page.error();
  const std::string gap = "//s:svg[@data-plot='diff-attribution']";
  EXPECT_EQ(page.Count(gap + "//s:g[@class='bar']"), int(diff.configs.size()));
  EXPECT_EQ(page.Count(gap + "//s:pattern"), 3);
  EXPECT_GE(page.Count(gap + "//s:rect[@data-series='sync latency']"), 1);
  EXPECT_EQ(page.Count(gap + "//s:g[@data-legend]"), 3);
  EXPECT_EQ(page.Count("//s:svg[@data-plot='diff-rates']//s:g[@class='bar']"),
            2 * int(diff.configs.size()));
}

// The probe table's flush/op column, as on the console: only when a probe's flushes were
// counted, "-" where not; every row as wide as the header.
TEST(HtmlReporterTest, CountedFlushesAddAFlushPerOpColumnToTheProbeTable) {
  const std::string html = Page(testing_support::FlushReport());
  EXPECT_NE(html.find("<th class=\"num\">max</th><th class=\"num\">flush/op</th><th>status</th>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<td class=\"num\">2.00 ms</td><td class=\"num\">1.00</td><td>ok</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<td class=\"num\">2.00 ms</td><td class=\"num\">-</td><td>ok</td>"),
            std::string::npos)
      << html;
  EXPECT_EQ(Page(FixtureReport()).find("flush/op"), std::string::npos);
  EXPECT_EQ(html.find("bg: the flushes"), std::string::npos) << "a quiet background";
  model::Report busy = testing_support::FlushReport();
  busy.targets[0].probes[0] = testing_support::FlushInNoiseProbe();
  const std::string noisy = Page(busy);
  EXPECT_NE(noisy.find("<td class=\"num\">1.00 (bg 0.20)</td>"), std::string::npos) << noisy;
  EXPECT_NE(noisy.find("</table>\n<p class=\"note\">bg: the flushes per operation"),
            std::string::npos)
      << noisy;
  REQUIRE_LIBXML2();
  XmlPage page(html);
  ASSERT_TRUE(page.parsed()) << page.error();
  EXPECT_EQ(page.Count("//h:table[@class='probes']//h:th"), 12);
  EXPECT_EQ(page.Count("//h:table[@class='probes']//h:td[@colspan='8']"), 1);
}

// A saved crashtest (tests/fixtures/golden/reports/crashtest.json, ext4, WAL/FULL and
// DELETE/FULL, 12 states each): the table, the states to rebuild with their log, and a plot per
// configuration whose losses are marked where the states lost commits, and only there.
TEST(HtmlReporterTest, CrashtestPlotsTheStatesOverTheRunAndMarksEachLoss) {
  REQUIRE_LIBXML2();
  Result<model::Report> report = codec::FromJson(ReadFixture("golden/reports/crashtest.json"));
  ASSERT_TRUE(report.ok()) << report.status().message();
  XmlPage page(Page(*report));
  ASSERT_TRUE(page.parsed()) << page.error();
  EXPECT_EQ(page.Count("//h:table[@class='crashtest']/h:tbody/h:tr"), 2);
  EXPECT_EQ(page.Count("//h:li/h:code"), 6) << "DELETE/FULL's three losing states, and its log";
  EXPECT_EQ(page.Count("//h:li/h:code[text()='2d2f739c548fe529']"), 3);
  const model::Target& t = report->targets[0];
  for (std::size_t i = 0; i < t.crashtest.size(); ++i) {
    const std::string plot = fmt::format("//s:svg[@data-plot='r0t0-crashtest-{}']", i);
    EXPECT_EQ(page.Count(plot + "//s:path[@data-series='acknowledged by then']"), 1) << i;
    std::size_t losses = 0;
    for (const sqlite_bench::CrashtestMoment& m : t.crashtest[i].timeline) {
      losses += m.present < m.acknowledged ? 1 : 0;
    }
    EXPECT_EQ(page.Count(plot + "//s:g[not(@data-legend)]/s:path[@class='mark']"),
              static_cast<int>(losses))
        << i;
  }
  EXPECT_NE(page.Text("//s:svg[@data-plot='r0t0-crashtest-1']").find("0 of 1 acknowledged"),
            std::string::npos);
}

TEST(HtmlReporterTest, MakeReporterHasTheHtmlFormat) {
  std::unique_ptr<Reporter> r = MakeReporter(output::Format::kHtml);
  ASSERT_NE(r, nullptr);
  EXPECT_NE(dynamic_cast<HtmlReporter*>(r.get()), nullptr);
}

}  // namespace
}  // namespace durprobe::render::html
