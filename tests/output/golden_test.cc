// Every document in every format, against the text kept in tests/fixtures/golden/: a change to
// any output, however small, is a decision made in the same commit as the new golden files.
// The documents are the reporter tests' samples and reports saved by real runs
// (tests/fixtures/golden/reports/, each read back with the typed reader). A format that does
// not write a document is kept as its "unsupported" line, so a format gaining a document shows
// too. DURPROBE_UPDATE_GOLDEN=1 rewrites the files instead of comparing (docs/testing.md).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "codec/json_reader.h"
#include "explain/compare_analysis.h"
#include "explain/diff_analysis.h"
#include "explain/path_summary.h"
#include "explain/summary.h"
#include "output/output.h"
#include "render/html/html_reporter.h"
#include "tests/check_report_fixture.h"
#include "tests/compare_samples.h"
#include "tests/fixtures.h"
#include "tests/report_samples.h"
#include "tests/saved_reports.h"

namespace durprobe::output {
namespace {

using testing_support::SavedReport;

namespace fs = std::filesystem;
using testing_support::FixturePath;
using testing_support::ReadFixture;

bool Updating() {
  const char* v = std::getenv("DURPROBE_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

// The document's text in one format, or its one "unsupported" line.
template <typename Document>
std::string Rendered(Format format, const Document& doc) {
  Result<std::string> text = Render(format, doc);
  if (!text.ok()) return "unsupported: " + text.status().message() + "\n";
  return *text;
}

// Compares (or, when updating, writes) tests/fixtures/golden/NAME.FORMAT for every format in
// the format table (output/formats.cc).
template <typename Document>
void ExpectGolden(const std::string& name, const Document& doc) {
  for (const FormatRow& row : FormatTable()) {
    const Format format = row.format;
    std::string file = FixturePath("golden/" + name + "." + std::string(NameOf(format)));
    std::string text = Rendered(format, doc);
    if (Updating()) {
      std::ofstream(file, std::ios::binary) << text;
      continue;
    }
    std::ifstream in(file, std::ios::binary);
    ASSERT_TRUE(in.good()) << file << " is missing: run with DURPROBE_UPDATE_GOLDEN=1";
    std::stringstream kept;
    kept << in.rdbuf();
    // The first differing line, so a failure says where without printing a whole page.
    std::istringstream want(kept.str()), got(text);
    std::string w, g;
    int line = 0;
    while (true) {
      ++line;
      bool more_w = static_cast<bool>(std::getline(want, w));
      bool more_g = static_cast<bool>(std::getline(got, g));
      if (!more_w && !more_g) break;
      ASSERT_TRUE(more_w == more_g && w == g)
          << file << " differs at line " << line << "\n  kept: " << (more_w ? w : "<end>")
          << "\n  now:  " << (more_g ? g : "<end>");
    }
    EXPECT_EQ(kept.str(), text) << file;  // the trailing newline
  }
}

TEST(GoldenTest, RunReportsInEveryFormat) {
  ExpectGolden("sample", testing_support::SampleReport());
  ExpectGolden("check_sample", testing_support::CheckReportFixture());
  for (const char* name :
       {"run", "check", "crashsim", "workloads", "sqlite_crashsim", "probe_sizes", "check_fail",
        "concurrency", "run_repeat", "crashtest", "faults"}) {
    ExpectGolden(std::string("report_") + name,
                 SavedReport(std::string("golden/reports/") + name + ".json"));
  }
  ExpectGolden("report_drift", SavedReport("html/drift_report.json"));
  ExpectGolden("report_html_fixture", SavedReport("html/report.json"));
}

TEST(GoldenTest, ComparisonInEveryFormat) {
  explain::Comparison sample;
  sample.context = testing_support::SampleReport().context;
  sample.context.command = "compare";
  sample.targets = {testing_support::PathWith("/a", 1, 1, 1),
                    testing_support::PathWith("/b", 8, 1, 1),
                    testing_support::PathWith("/c", 1, 6, 1)};
  sample.verdicts = explain::CompareVerdicts(sample.targets);
  ExpectGolden("compare_sample", sample);

  model::Report saved = SavedReport("golden/reports/compare.json");
  explain::Comparison measured{.context = saved.context, .targets = saved.targets};
  measured.verdicts = explain::CompareVerdicts(measured.targets);
  ExpectGolden("compare_measured", measured);
}

TEST(GoldenTest, DiffsInEveryFormat) {
  struct Pair {
    const char *name, *a, *b;
  };
  for (Pair p :
       {Pair{"diff_sync_latency", "diff/a.json", "diff/b_sync_latency.json"},
        Pair{"diff_probes", "diff/probes_a.json", "diff/probes_b_sync.json"},
        Pair{"diff_run_crashsim", "golden/reports/run.json", "golden/reports/crashsim.json"},
        Pair{"diff_concurrency", "golden/reports/concurrency.json",
             "golden/reports/concurrency.json"}}) {
    Result<explain::Diff> d =
        explain::DiffReports(SavedReport(p.a), SavedReport(p.b), p.a, p.b, {});
    ASSERT_TRUE(d.ok()) << p.name << ": " << d.status().message();
    ExpectGolden(p.name, *d);
  }
}

TEST(GoldenTest, SummaryInEveryFormat) {
  explain::Summary summary;
  for (const char* file : {"summary/fast.json", "summary/slow.json", "summary/old.json",
                           "golden/reports/check.json"}) {
    std::vector<explain::SummaryRow> rows = explain::RowsFromReport(SavedReport(file), file);
    summary.rows.insert(summary.rows.end(), rows.begin(), rows.end());
  }
  SortRows(summary.rows, explain::SummarySort::kWorst);
  ExpectGolden("summary", summary);
}

TEST(GoldenTest, SavedReportsInEveryFormat) {
  render::html::SavedReports saved;
  for (const char* file : {"golden/reports/run.json", "html/drift_report.json"}) {
    saved.reports.push_back({file, SavedReport(file)});
  }
  ExpectGolden("saved_reports", saved);
}

}  // namespace
}  // namespace durprobe::output
