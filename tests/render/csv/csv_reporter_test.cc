#include "render/csv/csv_reporter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "explain/diff_analysis.h"
#include "render/csv/summary_csv.h"
#include "tests/render/flush_samples.h"

namespace durprobe::render::csv {
namespace {

TEST(CsvReporterTest, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
}

TEST(CsvReporterTest, AProbeAndASqliteRowShareTheColumns) {
  model::Report report;
  model::Target t;
  t.path = "/d,1";
  probes::ProbeResult p;
  p.spec = {probes::Primitive::kFdatasync, probes::Pattern::kAppend, 4096};
  p.ops = 50;  // too few for p99
  p.ops_per_sec = 100;
  p.latency.p50 = 1000;
  p.latency.p99 = 5000;
  t.probes.push_back(p);
  model::SqliteEntry e;
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

// Issue 32 item 6: text a spreadsheet would run as a formula is neutralised; numbers stay.
TEST(CsvReporterTest, TextThatReadsAsAFormulaGetsAQuoteFirst) {
  EXPECT_EQ(CsvText("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
  EXPECT_EQ(CsvText("+1+cmd|' /C calc'!A0"), "'+1+cmd|' /C calc'!A0");
  EXPECT_EQ(CsvText("-2+3"), "'-2+3");
  EXPECT_EQ(CsvText("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(CsvText("\tx"), "'\tx");
  EXPECT_EQ(CsvText("\rx"), "\"'\rx\"");
  EXPECT_EQ(CsvText("/srv/a=b"), "/srv/a=b");  // only the first character counts
  EXPECT_EQ(CsvText(""), "");
}

// The cells are decided by column: a text column neutralised, a number column (a share of a
// gap may be negative) left a number.
TEST(CsvReporterTest, ReportsNeutraliseTextColumnsOnly) {
  model::Report report;
  model::Target t;
  t.path = "=cmd()";
  probes::ProbeResult p;
  p.spec = {probes::Primitive::kFsync, probes::Pattern::kOverwrite, 4096};
  p.outcome = probes::Outcome::kError;
  p.reason = "-1+@x";
  t.probes.push_back(p);
  report.targets.push_back(t);
  std::ostringstream out;
  ASSERT_TRUE(CsvReporter().Write(report, out).ok());
  EXPECT_NE(out.str().find("\r\n'=cmd(),probe,fsync,overwrite,4096,"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find(",'-1+@x,"), std::string::npos) << out.str();

  explain::Diff diff;
  explain::ConfigDiff c;
  c.journal_mode = "@WAL";
  c.synchronous = "FULL";
  c.share_sync_latency = -3.2;
  diff.configs.push_back(c);
  std::ostringstream d;
  ASSERT_TRUE(CsvReporter().Write(diff, d).ok());
  EXPECT_NE(d.str().find("\r\n'@WAL,FULL,1,0,0,-3.2,"), std::string::npos) << d.str();
}

TEST(CsvReporterTest, SummaryNeutralisesHostsPathsAndNamesButNotFigures) {
  explain::SummaryRow r;
  r.host = "=evil";
  r.path = "+p";
  r.findings = {"@f"};
  r.sync_p50_ns = -5;
  std::ostringstream out;
  WriteSummaryCsv({r}, out);
  std::string row = out.str().substr(out.str().find('\n') + 1);
  EXPECT_EQ(row.rfind("'=evil,'+p,,,,-5,", 0), 0u) << row;
  EXPECT_NE(row.find(",'@f,"), std::string::npos) << row;
}

// flush_per_op: the leading device's flushes per operation where they were counted, empty where
// not (or where counting was unavailable).
TEST(CsvReporterTest, FlushPerOpIsEmptyWhenNotCounted) {
  model::Report report = testing_support::FlushReport();
  report.targets[0].probes.push_back(testing_support::FlushUnavailableProbe());
  std::ostringstream out;
  ASSERT_TRUE(CsvReporter().Write(report, out).ok());
  std::vector<std::string> lines;
  std::string text = out.str();
  for (std::size_t start = 0, nl; (nl = text.find("\r\n", start)) != std::string::npos;
       start = nl + 2) {
    lines.push_back(text.substr(start, nl - start));
  }
  ASSERT_EQ(lines.size(), 5u) << text;
  auto cells = [](const std::string& line) {
    std::vector<std::string> row(1);
    for (char c : line) {
      if (c == ',') {
        row.emplace_back();
      } else {
        row.back().push_back(c);
      }
    }
    return row;
  };
  auto fields = [](const std::string& line) { return std::count(line.begin(), line.end(), ','); };
  const std::vector<std::string> header = cells(lines[0]);
  const std::size_t column = static_cast<std::size_t>(
      std::find(header.begin(), header.end(), "flush_per_op") - header.begin());
  ASSERT_LT(column, header.size()) << lines[0];
  EXPECT_EQ(lines[1].rfind("/data,probe,fdatasync,append,4096,", 0), 0u) << lines[1];
  EXPECT_EQ(cells(lines[1])[column], "1") << lines[1];
  for (std::size_t i = 2; i < lines.size(); ++i) EXPECT_EQ(cells(lines[i])[column], "") << lines[i];
  for (const std::string& line : lines) EXPECT_EQ(fields(line), fields(lines[0])) << line;
}

}  // namespace
}  // namespace durprobe::render::csv
