#include "report/format/flat/csv_reporter.h"

#include <gtest/gtest.h>

#include <sstream>

namespace durprobe::report {
namespace {

TEST(CsvReporterTest, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
}

TEST(CsvReporterTest, AProbeAndASqliteRowShareTheColumns) {
  Report report;
  Target t;
  t.path = "/d,1";
  probes::ProbeResult p;
  p.spec = {probes::Primitive::kFdatasync, probes::Pattern::kAppend, 4096};
  p.ops = 50;  // too few for p99
  p.ops_per_sec = 100;
  p.latency.p50 = 1000;
  p.latency.p99 = 5000;
  t.probes.push_back(p);
  SqliteEntry e;
  e.result.commits = 10;
  e.result.commits_per_sec = 99.5;
  t.sqlite.push_back(e);
  report.targets.push_back(t);
  std::ostringstream out;
  ASSERT_TRUE(CsvReporter().Write(report, out).ok());
  std::string text = out.str();
  std::vector<std::string> lines;
  for (std::size_t start = 0, nl; (nl = text.find("\r\n", start)) != std::string::npos;
       start = nl + 2) {
    lines.push_back(text.substr(start, nl - start));
  }
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1].rfind("\"/d,1\",probe,fdatasync,append,4096,,,,ok,50,100,1000,", 0), 0u)
      << lines[1];
  // p99 (column 14) is empty: 50 operations cannot support it.
  EXPECT_NE(lines[1].find(",1000,0,,,0,0,,,"), std::string::npos) << lines[1];
  EXPECT_EQ(lines[2].rfind("\"/d,1\",sqlite,,,,DELETE,FULL,1,ok,10,99.5,", 0), 0u) << lines[2];
}

}  // namespace
}  // namespace durprobe::report
