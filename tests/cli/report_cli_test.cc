// `durprobe report REPORT.json... --html FILE` as a user runs it.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli_runner.h"
#include "tests/fixtures.h"
#include "tests/test_dirs.h"
#include "tests/xml_page.h"

namespace durprobe::testing_support {
namespace {

const std::string kReport = FixturePath("html/report.json");

TEST(ReportCliTest, RendersASavedReportIntoOnePage) {
  TempDir dir;
  std::string page = dir.path() + "/page.html";
  CliRun run = RunDurprobe("report " + kReport + " --html " + page);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_TRUE(run.err.empty()) << run.err;
  std::string html = Slurp(page);
  if (!XmlPage::available()) GTEST_SKIP() << XmlPage::skip_reason();
  XmlPage xml(html);
  ASSERT_TRUE(xml.parsed()) << xml.error();
  for (const char* plot : {"r0t0-cdf-overwrite", "r0t0-cdf-append", "r0t0-cdf-dir", "r0t0-sizes",
                           "r0t0-commits", "r0t0-batch", "r0t0-reps"}) {
    EXPECT_EQ(xml.Count(std::string("//s:svg[@data-plot='") + plot + "']"), 1) << plot;
  }
  EXPECT_EQ(xml.Text("//h:table[@class='context']//h:tr[h:th='report file']/h:td"), kReport);
}

TEST(ReportCliTest, SeveralReportsShareOnePageAndStdoutWorks) {
  CliRun run = RunDurprobe("report " + kReport + " " + kReport + " --html -");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.rfind("<!DOCTYPE html>", 0), 0u);
  if (!XmlPage::available()) GTEST_SKIP() << XmlPage::skip_reason();
  XmlPage xml(run.out);
  ASSERT_TRUE(xml.parsed()) << xml.error();
  EXPECT_EQ(xml.Count("//h:table[@class='context']"), 2);
  EXPECT_EQ(xml.Count("//s:svg[@data-plot='r1t0-cdf-overwrite']"), 1);
  // Both reports' probes on the same axes first: a line per report in each overlay.
  EXPECT_EQ(xml.Count("//s:svg[@data-plot='all-cdf-0']//s:path[@data-series]"), 2);
  EXPECT_EQ(xml.Count("//s:svg[starts-with(@data-plot, 'all-cdf-')]"), 14);
}

TEST(ReportCliTest, AnOlderReportWithoutHistogramsRendersWithoutCdfs) {
  CliRun run = RunDurprobe("report " + FixturePath("diff/a.json") + " --html -");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  if (!XmlPage::available()) GTEST_SKIP() << XmlPage::skip_reason();
  XmlPage xml(run.out);
  ASSERT_TRUE(xml.parsed()) << xml.error();
  EXPECT_EQ(xml.Count("//s:svg[contains(@data-plot, '-cdf-')]"), 0);
  EXPECT_EQ(xml.Count("//s:svg[@data-plot='r0t0-commits']"), 1);
  EXPECT_GE(xml.Count("//h:table[@class='sqlite']/h:tbody/h:tr"), 1);
}

TEST(ReportCliTest, BadInputIsOneLineAndExitTwo) {
  TempDir dir;
  std::string out = " --html " + dir.path() + "/p.html";
  ExpectUsageError(RunDurprobe("report " + dir.path() + "/missing.json" + out), "does not exist",
                   "missing file");
  ExpectUsageError(RunDurprobe("report " + FixturePath("diff/malformed.json") + out),
                   "syntax error at byte", "malformed");
  ExpectUsageError(RunDurprobe("report " + FixturePath("diff/wrong_schema.json") + out),
                   "expected durprobe.report/1", "wrong schema");
  ExpectUsageError(RunDurprobe("report " + kReport), "--html", "no --html");
  std::string typed = dir.path() + "/typed.json";
  std::ofstream(typed) << R"({"schema": "durprobe.report/1", "targets": [{"path": "/x",
      "probes": [{"primitive": "fsync", "pattern": "overwrite", "write_size": "big"}]}]})";
  ExpectUsageError(RunDurprobe("report " + typed + out), "typed.json: ", "wrong type");
  // The destination is checked before any report is read: a missing report is not the error.
  ExpectUsageError(RunDurprobe("report " + dir.path() + "/missing.json --html " + dir.path() +
                               "/no/such/dir/p.html"),
                   "--html " + dir.path() + "/no/such/dir/p.html: directory", "unwritable");
}

}  // namespace
}  // namespace durprobe::testing_support
