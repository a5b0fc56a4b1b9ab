// `durprobe report REPORT.json... --html FILE` as a user runs it, and the page it writes opened
// in headless Chromium (Debian's chromium package), which must load it without a console error.
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
  ExpectUsageError(RunDurprobe("report " + typed + out), "target /x", "wrong type");
  ExpectUsageError(
      RunDurprobe("report " + kReport + " --html " + dir.path() + "/no/such/dir/p.html"),
      "cannot write the page", "unwritable");
}

// Headless Chromium opens the page with console logging on stderr; every console message (a
// script error, an SVG attribute it cannot parse, a blocked load) is a line with ":CONSOLE".
struct Browser {
  std::string binary;
  CliRun Run(const std::string& args, const std::string& profile) const {
    return RunShell("timeout 120 " + binary +
                    " --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars"
                    " --user-data-dir=" +
                    profile + " --enable-logging=stderr --v=0 --virtual-time-budget=3000 " + args);
  }
};

std::string FindChromium() {
  CliRun which = RunShell("command -v chromium || command -v chromium-browser");
  std::string path = which.out.substr(0, which.out.find('\n'));
  return which.exit_code == 0 ? path : "";
}

std::string ConsoleLines(const std::string& log) {
  std::string lines;
  std::size_t at = 0;
  while ((at = log.find(":CONSOLE", at)) != std::string::npos) {
    std::size_t begin = log.rfind('\n', at);
    std::size_t end = log.find('\n', at);
    lines += log.substr(begin == std::string::npos ? 0 : begin + 1,
                        end == std::string::npos ? std::string::npos : end - begin) +
             "\n";
    at = end == std::string::npos ? log.size() : end;
  }
  return lines;
}

TEST(ReportCliTest, HeadlessChromiumSeesConsoleErrorsOnABrokenPage) {
  Browser browser{FindChromium()};
  if (browser.binary.empty())
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
  TempDir dir;
  std::ofstream(dir.path() + "/bad.html")
      << "<!DOCTYPE html><html><body><svg><path d=\"M nan 3\"/></svg></body></html>";
  CliRun run =
      browser.Run("--dump-dom file://" + dir.path() + "/bad.html", dir.path() + "/profile");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // The check below is only worth something if a broken page shows up.
  EXPECT_NE(ConsoleLines(run.err).find("Expected number"), std::string::npos) << run.err;
}

TEST(ReportCliTest, PageLoadsInHeadlessChromiumWithoutConsoleErrors) {
  Browser browser{FindChromium()};
  if (browser.binary.empty())
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
  TempDir dir;
  std::string page = dir.path() + "/page.html";
  ASSERT_EQ(RunDurprobe("report " + kReport + " --html " + page).exit_code, 0);
  CliRun dom = browser.Run("--dump-dom file://" + page, dir.path() + "/profile");
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  EXPECT_EQ(ConsoleLines(dom.err), "");
  // The browser built the whole page: every plot is in its DOM.
  std::size_t plots = 0;
  for (std::size_t at = 0; (at = dom.out.find("data-plot=", at)) != std::string::npos; ++at)
    ++plots;
  EXPECT_EQ(plots, 7u);
  CliRun shot =
      browser.Run("--window-size=1000,3000 --screenshot=" + dir.path() + "/shot.png file://" + page,
                  dir.path() + "/profile2");
  ASSERT_EQ(shot.exit_code, 0) << shot.err;
  EXPECT_EQ(ConsoleLines(shot.err), "");
  std::string png = Slurp(dir.path() + "/shot.png");
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
}

}  // namespace
}  // namespace durprobe::testing_support
