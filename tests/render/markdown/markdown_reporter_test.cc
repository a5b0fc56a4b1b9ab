// Issue 32 item 13: text from a report is Markdown text, never HTML or a code span's end.
#include "render/markdown/markdown_reporter.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/render/flush_samples.h"
#include "tests/report_samples.h"

namespace durprobe::render::markdown {
namespace {

TEST(MarkdownReporterTest, TextCarriesNoHtmlAndNoTableBreak) {
  EXPECT_EQ(MarkdownText("/srv/db"), "/srv/db");
  EXPECT_EQ(MarkdownText("a > b"), "a > b");  // a > alone opens nothing
  EXPECT_EQ(MarkdownText("/t/</td></tr></table><img src=x onerror=alert(1)>"),
            "/t/&lt;/td>&lt;/tr>&lt;/table>&lt;img src=x onerror=alert(1)>");
  EXPECT_EQ(MarkdownText("&lt; | \\"), "&amp;lt; \\| \\\\");
  EXPECT_EQ(MarkdownText("two\nlines\x1b[2J"), "two\\\\nlines\\\\x1b[2J");
}

TEST(MarkdownReporterTest, ACodeSpansFenceIsLongerThanAnyBacktickRunInIt) {
  EXPECT_EQ(MarkdownCode("run ."), "`run .`");
  EXPECT_EQ(MarkdownCode("a`b"), "``a`b``");
  EXPECT_EQ(MarkdownCode("a``b`c"), "```a``b`c```");
  EXPECT_EQ(MarkdownCode("`x"), "`` `x ``");  // spaces inside, which CommonMark strips
  EXPECT_EQ(MarkdownCode("x`"), "`` x` ``");
  EXPECT_EQ(MarkdownCode(" x "), "`  x  `");
  EXPECT_EQ(MarkdownCode("<b>"), "`<b>`");  // a code span shows < as it is
  EXPECT_EQ(MarkdownCode("a\nb"), "`a\\nb`");
}

TEST(MarkdownReporterTest, AHostilePathHeadsItsSectionAsText) {
  model::Report report;
  model::Target t;
  t.path = "/t/</td><img src=x onerror=alert(1)>\n# forged `x";
  model::Finding f;
  f.code = "code`";
  f.message = "<script>alert(1)</script>";
  t.findings.push_back(f);
  report.targets.push_back(t);
  std::ostringstream out;
  ASSERT_TRUE(MarkdownReporter().Write(report, out).ok());
  std::string md = out.str();
  EXPECT_NE(md.find("## /t/&lt;/td>&lt;img src=x onerror=alert(1)>\\\\n# forged `x\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("`` code` ``: &lt;script>alert(1)&lt;/script>"), std::string::npos) << md;
  EXPECT_EQ(md.find("<img"), std::string::npos) << md;
  EXPECT_EQ(md.find("\n# forged"), std::string::npos) << md;
}

// The probe table's flush/op column: only when a probe's flushes were counted, "-" where not.
TEST(MarkdownReporterTest, CountedFlushesAddAFlushPerOpColumn) {
  std::ostringstream out;
  ASSERT_TRUE(MarkdownReporter().Write(testing_support::FlushReport(), out).ok());
  const std::string md = out.str();
  EXPECT_NE(md.find("| p99.9 | max | flush/op |\n| --- | --- | --- | --- | --- | --- | --- | --- "
                    "| --- | --- | --- |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| fdatasync | append | 4 KiB | ok | 1234 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 2.00 ms | 1.00 |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| fdatasync | overwrite |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 2.00 ms | - |\n"), std::string::npos) << "the uncounted probe: " << md;

  EXPECT_EQ(md.find("bg"), std::string::npos) << "a quiet background: " << md;

  std::ostringstream plain;
  ASSERT_TRUE(MarkdownReporter().Write(testing_support::SampleReport(), plain).ok());
  EXPECT_EQ(plain.str().find("flush"), std::string::npos) << plain.str();
}

TEST(MarkdownReporterTest, AFlushCountBesideABusyBackgroundShowsItWithANote) {
  model::Report report = testing_support::FlushReport();
  report.targets[0].probes[0] = testing_support::FlushInNoiseProbe();
  std::ostringstream out;
  ASSERT_TRUE(MarkdownReporter().Write(report, out).ok());
  EXPECT_NE(out.str().find("| 2.00 ms | 1.00 (bg 0.20) |\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\n\nbg: the flushes per operation"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace durprobe::render::markdown
