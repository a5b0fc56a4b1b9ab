// The HTML pages opened in headless Chromium (Debian's chromium package): each must load with no
// console message (a script error, an SVG attribute the browser cannot parse, a blocked load), show
// every plot in its DOM, and render to a screenshot. Skipped where Chromium is not installed.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "codec/json_reader.h"
#include "explain/compare_analysis.h"
#include "explain/diff_analysis.h"
#include "render/html/html_reporter.h"
#include "tests/cli_runner.h"
#include "tests/fixtures.h"
#include "tests/test_dirs.h"

namespace durprobe::testing_support {
namespace {

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

TEST(HtmlChromiumTest, SeesConsoleErrorsOnABrokenPage) {
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

int CountOf(const std::string& text, const std::string& needle) {
  int n = 0;
  for (std::size_t at = 0; (at = text.find(needle, at)) != std::string::npos; ++at) ++n;
  return n;
}

// Loads page in the browser (DOM dump, then a screenshot), expecting no console message and
// plots plots in the DOM.
void ExpectCleanLoad(const Browser& browser, const TempDir& dir, const std::string& page,
                     int plots) {
  CliRun dom = browser.Run("--dump-dom file://" + page, dir.path() + "/profile");
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  EXPECT_EQ(ConsoleLines(dom.err), "") << page;
  EXPECT_EQ(CountOf(dom.out, "data-plot="), plots) << page;
  std::string png = page + ".png";
  CliRun shot = browser.Run("--window-size=1000,3000 --screenshot=" + png + " file://" + page,
                            dir.path() + "/profile2");
  ASSERT_EQ(shot.exit_code, 0) << shot.err;
  EXPECT_EQ(ConsoleLines(shot.err), "") << page;
  EXPECT_EQ(Slurp(png).substr(1, 3), "PNG") << page;
}

TEST(HtmlChromiumTest, ReportPageLoadsWithoutConsoleErrors) {
  Browser browser{FindChromium()};
  if (browser.binary.empty())
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
  TempDir dir;
  std::string page = dir.path() + "/report.html";
  CliRun run = RunDurprobe("report " + FixturePath("html/report.json") + " --html " + page);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ExpectCleanLoad(browser, dir, page, 7);
}

TEST(HtmlChromiumTest, ComparisonAndDiffPagesLoadWithoutConsoleErrors) {
  Browser browser{FindChromium()};
  if (browser.binary.empty())
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
  TempDir dir;
  Result<model::Report> saved = codec::FromJson(ReadFixture("html/report.json"));
  ASSERT_TRUE(saved.ok()) << saved.status().message();
  explain::Comparison c{.context = saved->context,
                        .targets = {saved->targets[0], saved->targets[0]}};
  c.targets[1].path = "/second";
  c.verdicts = explain::CompareVerdicts(c.targets);
  std::ostringstream compare;
  ASSERT_TRUE(render::html::HtmlReporter().Write(c, compare).ok());
  std::ofstream(dir.path() + "/compare.html") << compare.str();
  // 14 overlays, the median bars (no component bars: a run measures no per-operation costs),
  // and each path's 7 plots.
  ExpectCleanLoad(browser, dir, dir.path() + "/compare.html", 14 + 1 + 2 * 7);

  Result<model::Report> a = codec::FromJson(ReadFixture("diff/a.json"));
  Result<model::Report> b = codec::FromJson(ReadFixture("diff/b_non_sync.json"));
  ASSERT_TRUE(a.ok() && b.ok());
  Result<explain::Diff> diffed = explain::DiffReports(*a, *b, "a.json", "b.json");
  ASSERT_TRUE(diffed.ok()) << diffed.status().message();
  std::ostringstream diff;
  ASSERT_TRUE(render::html::HtmlReporter().Write(*diffed, diff).ok());
  std::ofstream(dir.path() + "/diff.html") << diff.str();
  ExpectCleanLoad(browser, dir, dir.path() + "/diff.html", 2);
}

}  // namespace
}  // namespace durprobe::testing_support
