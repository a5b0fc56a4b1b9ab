// The JUnit file: its structure as CI systems read it, and validity against the JUnit schema in
// tests/fixtures/junit/junit.xsd by xmllint (libxml2-utils).
#include "render/junit/junit_reporter.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/check_report_fixture.h"
#include "tests/cli_runner.h"
#include "tests/fixtures.h"

namespace durprobe::render::junit {
namespace {

std::string Junit() {
  std::ostringstream out;
  EXPECT_TRUE(JunitReporter().Write(testing_support::CheckReportFixture(), out).ok());
  return out.str();
}

int Count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

TEST(JunitReporterTest, ASuitePerPathACasePerRule) {
  std::string xml = Junit();
  EXPECT_EQ(Count(xml, "<testsuite "), 2);
  EXPECT_EQ(Count(xml, "<testcase "), 4);
  EXPECT_NE(xml.find("<testsuites name=\"durprobe check\" tests=\"4\" failures=\"1\" errors=\"1\" "
                     "skipped=\"1\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testcase classname=\"/var/lib/etcd\" name=\"etcd_wal_fsync_p99\">"),
            std::string::npos);
  EXPECT_NE(xml.find("<failure type=\"tail_failure\" message=\"measured 67.0 ms, threshold &lt; "
                     "10.0 ms\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<skipped message=\"full_fsync is unsupported here\"/>"), std::string::npos);
  EXPECT_NE(xml.find("name=\"/srv/other &quot;dir&quot;\""), std::string::npos);
}

TEST(JunitReporterTest, EscapesWhatXmlReserves) {
  EXPECT_EQ(XmlEscape("a<b & \"c\" 'd'>\x01"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
}

TEST(JunitReporterTest, ValidatesAgainstTheJunitSchema) {
  if (testing_support::RunShell("command -v xmllint").exit_code != 0) {
    GTEST_SKIP() << "xmllint is not installed (Debian: libxml2-utils; scripts/deps.sh test)";
  }
  testing_support::TempDir dir;
  std::string file = dir.path() + "/check.xml";
  std::ofstream(file) << Junit();
  testing_support::CliRun run = testing_support::RunShell(
      "xmllint --noout --schema " + testing_support::FixturePath("junit/junit.xsd") + " " + file);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("validates"), std::string::npos) << run.err;
}

TEST(JunitReporterTest, TheSchemaRejectsABrokenFile) {
  if (testing_support::RunShell("command -v xmllint").exit_code != 0) {
    GTEST_SKIP() << "xmllint is not installed (Debian: libxml2-utils; scripts/deps.sh test)";
  }
  testing_support::TempDir dir;
  std::string file = dir.path() + "/broken.xml";
  std::ofstream(file) << "<testsuites><testsuite name=\"x\"><testcase name=\"y\"/></testsuite>"
                         "</testsuites>\n";  // no tests count, no classname
  testing_support::CliRun run = testing_support::RunShell(
      "xmllint --noout --schema " + testing_support::FixturePath("junit/junit.xsd") + " " + file);
  EXPECT_NE(run.exit_code, 0);
}

}  // namespace
}  // namespace durprobe::render::junit
