// Each command's report options are the format table's (output/formats.cc): one option per format
// whose row lists the command's document, in the table's order, named and helped by the row (or
// the command's own words for its document), and parsed into the destinations in that order.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "cli/cmd_check.h"
#include "cli/cmd_compare.h"
#include "cli/cmd_crashsim.h"
#include "cli/cmd_diff.h"
#include "cli/cmd_inspect.h"
#include "cli/cmd_probe.h"
#include "cli/cmd_report.h"
#include "cli/cmd_run.h"
#include "cli/cmd_sqlite.h"
#include "cli/cmd_summarize.h"
#include "cli/standard_options.h"
#include "output/formats.h"
#include "tests/cli_runner.h"

namespace durprobe::cli {
namespace {

using output::Document;
using output::Format;

// The options of sub that name a report destination (any format's option), as "--name", in the
// order the command lists them.
std::vector<std::string> OutputOptionsOf(const CLI::App& sub) {
  std::vector<std::string> out;
  for (const CLI::Option* opt : sub.get_options()) {
    for (const output::FormatRow& row : output::FormatTable()) {
      for (const std::string& l : opt->get_lnames()) {
        if ("--" + l == output::OptionOf(row.format)) out.push_back("--" + l);
      }
    }
  }
  return out;
}

std::vector<std::string> OptionsOfTheRows(Document document, bool rules) {
  std::vector<std::string> out;
  for (Format f : output::FormatsWriting(document)) {
    if (!output::RowOf(f).rules_only || rules) out.push_back(output::OptionOf(f));
  }
  return out;
}

TEST(OutputOptionsCliTest, EachCommandOffersTheFormatsWritingItsDocument) {
  struct Case {
    const char* name;
    std::function<Subcommand(CLI::App&)> setup;
    Document document;
    bool rules = false;
  };
  // compare offers its comparison's formats (junit and prometheus, which do not render one, once
  // failed when the file was written, after the measuring); --junit, a testcase per check rule,
  // only check (elsewhere it wrote an empty suite: issue 35 item 4).
  const Case cases[] = {{"run", SetupRun, Document::kReport},
                        {"probe", SetupProbe, Document::kReport},
                        {"sqlite", SetupSqlite, Document::kReport},
                        {"check", SetupCheck, Document::kReport, true},
                        {"inspect", SetupInspect, Document::kReport},
                        {"crashsim", SetupCrashsim, Document::kReport},
                        {"compare", SetupCompare, Document::kComparison},
                        {"diff", SetupDiff, Document::kDiff},
                        {"summarize", SetupSummarize, Document::kSummary},
                        {"report", SetupReport, Document::kSavedReports}};
  for (const Case& c : cases) {
    CLI::App app;
    Subcommand sub = c.setup(app);
    ASSERT_NE(sub.app, nullptr) << c.name;
    EXPECT_EQ(OutputOptionsOf(*sub.app), OptionsOfTheRows(c.document, c.rules)) << c.name;
  }
}

TEST(OutputOptionsCliTest, TheHelpIsTheRowsUnlessTheCommandWordsItsDocument) {
  CLI::App app;
  Subcommand check = SetupCheck(app);  // every format of a report, --junit included
  for (Format f : output::FormatsWriting(Document::kReport)) {
    const CLI::Option* opt = check.app->get_option(output::OptionOf(f));
    EXPECT_EQ(opt->get_description(), output::RowOf(f).help) << output::NameOf(f);
  }
  EXPECT_EQ(check.app->get_option("-j"), check.app->get_option("--json"));  // the short option
  Subcommand summarize = SetupSummarize(app);
  EXPECT_EQ(summarize.app->get_option("--csv")->get_description(),
            "Write the rows as CSV to FILE, or - for stdout");
  Subcommand page = SetupReport(app);
  EXPECT_TRUE(page.app->get_option("--html")->get_required());
}

TEST(OutputOptionsCliTest, TheDestinationsAreParsedInTheTablesOrder) {
  CLI::App app;
  OutputOptions out;
  AddOutputOptions(app, out, Document::kReport);
  app.parse(std::vector<std::string>{"p.prom", "--prometheus", "r.md", "--markdown", "r.json",
                                     "-j"});  // CLI11 reads a vector from the back
  std::vector<output::Destination> d = Destinations(out);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].format, Format::kJson);
  EXPECT_EQ(d[0].path, "r.json");
  EXPECT_EQ(d[1].format, Format::kMarkdown);
  EXPECT_EQ(d[2].format, Format::kPrometheus);
  EXPECT_EQ(d[2].path, "p.prom");
}

// Issue 35 item 4: `inspect --junit -` wrote an empty suite named "durprobe check", and
// `compare --junit` failed after measuring; both are refused up front, one line, exit 2.
TEST(OutputOptionsCliTest, JunitIsChecksAndRefusedElsewhereBeforeAnythingRuns) {
  for (const std::string& args :
       {std::string("inspect /tmp --junit -"), std::string("compare /tmp /tmp --junit -"),
        std::string("compare /tmp /tmp --prometheus -")}) {
    testing_support::ExpectUsageError(testing_support::RunDurprobe(args),
                                      "The following argument was not expected", args);
  }
}

}  // namespace
}  // namespace durprobe::cli
