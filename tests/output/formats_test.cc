// The format table (output/formats.cc): one row per Format, and the rows are what the driver
// does: each row's factory makes a reporter that writes exactly the documents the row lists, and
// Render refuses the others with the row's name, never reaching the reporter.
#include "output/formats.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "codec/json_reader.h"
#include "explain/compare_analysis.h"
#include "explain/diff_analysis.h"
#include "explain/path_summary.h"
#include "explain/summary.h"
#include "output/output.h"
#include "render/html/html_reporter.h"
#include "tests/compare_samples.h"
#include "tests/fixtures.h"
#include "tests/report_samples.h"
#include "tests/saved_reports.h"

namespace durprobe::output {
namespace {

using testing_support::SavedReport;

// One of each document, as the golden test renders them.
struct Documents {
  model::Report report = testing_support::SampleReport();
  explain::Comparison comparison;
  explain::Diff diff;
  explain::Summary summary;
  render::html::SavedReports saved;
  model::PowercutEvidence evidence;

  Documents() {
    evidence.run_id = "0123456789abcdef";
    evidence.path = "/data";
    evidence.verdict = model::PowercutVerdict::kPassed;
    comparison.context = report.context;
    comparison.targets = {testing_support::PathWith("/a", 1, 1, 1),
                          testing_support::PathWith("/b", 8, 1, 1)};
    comparison.verdicts = explain::CompareVerdicts(comparison.targets);
    Result<explain::Diff> d = explain::DiffReports(
        SavedReport("diff/a.json"), SavedReport("diff/b_sync_latency.json"), "a", "b", {});
    EXPECT_TRUE(d.ok()) << d.status().message();
    if (d.ok()) diff = *d;
    summary.rows = explain::RowsFromReport(SavedReport("summary/fast.json"), "summary/fast.json");
    saved.reports.push_back({"golden/reports/run.json", SavedReport("golden/reports/run.json")});
  }
};

template <typename Doc>
bool ReporterWrites(const FormatRow& row, const Doc& doc) {
  std::ostringstream out;
  return row.make()->Write(doc, out).ok();
}

TEST(FormatsTest, EveryFormatHasExactlyOneRowInEnumOrder) {
  ASSERT_EQ(FormatTable().size(), kFormatCount);
  for (std::size_t i = 0; i < kFormatCount; ++i) {
    const Format f = static_cast<Format>(i);
    EXPECT_EQ(FormatTable()[i].format, f);
    EXPECT_EQ(&RowOf(f), &FormatTable()[i]);
    EXPECT_NE(MakeReporter(f), nullptr) << NameOf(f);
  }
}

TEST(FormatsTest, NamesAndOptionsAreUniqueAndOnlyTheConsoleHasNoOption) {
  std::set<std::string> names, options;
  for (const FormatRow& row : FormatTable()) {
    EXPECT_TRUE(names.insert(std::string(row.name)).second) << row.name;
    EXPECT_EQ(OptionOf(row.format), "--" + std::string(row.name));
    EXPECT_EQ(row.help.empty(), row.format == Format::kConsole) << row.name;
    if (!row.short_option.empty()) {
      EXPECT_TRUE(options.insert(std::string(row.short_option)).second) << row.short_option;
    }
  }
  EXPECT_EQ(RowOf(Format::kJson).short_option, "-j");
}

// The documents column is what each reporter writes: a row claiming a document its reporter
// refuses, or leaving out one it writes, fails here.
TEST(FormatsTest, EachRowListsExactlyTheDocumentsItsReporterWrites) {
  Documents docs;
  for (const FormatRow& row : FormatTable()) {
    EXPECT_EQ(ReporterWrites(row, docs.report), Renders(row.format, Document::kReport)) << row.name;
    EXPECT_EQ(ReporterWrites(row, docs.comparison), Renders(row.format, Document::kComparison))
        << row.name;
    EXPECT_EQ(ReporterWrites(row, docs.diff), Renders(row.format, Document::kDiff)) << row.name;
    EXPECT_EQ(ReporterWrites(row, docs.summary), Renders(row.format, Document::kSummary))
        << row.name;
    EXPECT_EQ(ReporterWrites(row, docs.saved), Renders(row.format, Document::kSavedReports))
        << row.name;
    EXPECT_EQ(ReporterWrites(row, docs.evidence), Renders(row.format, Document::kPowercutEvidence))
        << row.name;
  }
}

TEST(FormatsTest, RenderRefusesADocumentTheRowLeavesOutNamingTheFormat) {
  Documents docs;
  Result<std::string> junit = Render(Format::kJunit, docs.comparison);
  ASSERT_FALSE(junit.ok());
  EXPECT_EQ(junit.status().kind(), Status::Kind::kUnsupported);
  EXPECT_EQ(junit.status().message(), "the junit format has no view of a comparison");
  Result<std::string> json = Render(Format::kJson, docs.saved);
  ASSERT_FALSE(json.ok());
  EXPECT_EQ(json.status().message(), "the json format has no view of saved reports");
  EXPECT_TRUE(Render(Format::kHtml, docs.saved).ok());
}

// What each command offers: the formats with an option whose row lists its document, in the
// table's order; never the console, which has no option.
TEST(FormatsTest, TheFormatsWritingADocumentComeFromTheRows) {
  for (Document d : {Document::kReport, Document::kComparison, Document::kDiff, Document::kSummary,
                     Document::kSavedReports, Document::kPowercutEvidence}) {
    std::vector<Format> expected;
    for (const FormatRow& row : FormatTable()) {
      if (row.format != Format::kConsole && Renders(row.format, d)) expected.push_back(row.format);
    }
    EXPECT_EQ(FormatsWriting(d), expected) << NounOf(d);
  }
  // The documents only one format writes, as the commands that write them rely on.
  EXPECT_EQ(FormatsWriting(Document::kSavedReports), std::vector<Format>{Format::kHtml});
  // powercut verify's --json and --save-evidence: the evidence is JSON, and the console's text.
  EXPECT_EQ(FormatsWriting(Document::kPowercutEvidence), std::vector<Format>{Format::kJson});
  EXPECT_TRUE(Renders(Format::kConsole, Document::kPowercutEvidence));
  EXPECT_TRUE(Renders(Format::kConsole, Document::kDiff));
}

}  // namespace
}  // namespace durprobe::output
