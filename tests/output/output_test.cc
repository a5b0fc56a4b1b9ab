#include "output/output.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sstream>

#include "explain/summary.h"
#include "render/console/summary_console.h"
#include "render/csv/summary_csv.h"
#include "render/html/html_reporter.h"
#include "render/json/summary_json.h"
#include "tests/cli_runner.h"
#include "tests/test_dirs.h"

namespace durprobe::output {
namespace {

class OutputTest : public ::testing::Test {
 protected:
  platform::Platform& p_ = platform::Default();
  testing_support::TempDir dir_;
  model::Report report_;
};

TEST_F(OutputTest, AcceptsFilesInWritableDirectoriesAndOneStdout) {
  EXPECT_TRUE(
      CheckDestinations(p_, {{Format::kJson, dir_.path() + "/r.json"}, {Format::kCsv, "-"}}).ok());
}

TEST_F(OutputTest, RejectsAMissingDirectoryNamingTheOption) {
  Status s = CheckDestinations(p_, {{Format::kCsv, dir_.path() + "/nope/r.csv"}});
  EXPECT_EQ(s.kind(), Status::Kind::kInvalidArgument);
  EXPECT_NE(s.message().find("--csv"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("does not exist"), std::string::npos) << s.message();
}

// powercut verify's --save-evidence is a JSON destination named by its own option: the messages
// say --save-evidence, never --json; the written file is the evidence document.
TEST_F(OutputTest, ADestinationNamedByAnotherOptionIsCalledByIt) {
  Destination saved{Format::kJson, dir_.path() + "/nope/e.json", "--save-evidence"};
  Status s = CheckDestinations(p_, {saved});
  EXPECT_EQ(s.message().rfind("--save-evidence " + saved.path + ": directory", 0), 0u)
      << s.message();
  EXPECT_EQ(OptionNaming({Format::kJson, "-"}), "--json");
  model::PowercutEvidence e;
  e.run_id = "0123456789abcdef";
  e.verdict = model::PowercutVerdict::kPassed;
  saved.path = dir_.path() + "/e.json";
  std::ostringstream out;
  ASSERT_TRUE(WriteDestinations(p_, {saved}, e, out).ok());
  EXPECT_NE(testing_support::Slurp(saved.path).find("\"run_id\": \"0123456789abcdef\""),
            std::string::npos)
      << testing_support::Slurp(saved.path);
  EXPECT_EQ(out.str(), "");  // nothing to the console: it was not a destination
}

TEST_F(OutputTest, RejectsADirectoryTwoStdoutsAndTheSameFileTwice) {
  EXPECT_FALSE(CheckDestinations(p_, {{Format::kJson, dir_.path()}}).ok());
  EXPECT_FALSE(CheckDestinations(p_, {{Format::kJson, "-"}, {Format::kCsv, "-"}}).ok());
  std::string f = dir_.path() + "/x";
  EXPECT_FALSE(CheckDestinations(p_, {{Format::kJson, f}, {Format::kCsv, f}}).ok());
}

TEST_F(OutputTest, OneFileOrStdoutNamedTwoWaysIsStillNamedTwice) {
  std::string f = dir_.path() + "/x";
  std::string link = dir_.path() + "/link";
  ASSERT_EQ(::symlink(f.c_str(), link.c_str()), 0);
  ASSERT_TRUE(p_.WriteTextFile(f, "old").ok());
  for (const std::string& other :
       {dir_.path() + "/./x",
        dir_.path() + "/../" + dir_.path().substr(dir_.path().rfind('/') + 1) + "/x", link}) {
    Status s = CheckDestinations(p_, {{Format::kJson, f}, {Format::kCsv, other}});
    EXPECT_NE(s.message().find("the same file is named by two options"), std::string::npos)
        << other << ": " << s.message();
  }
  for (const char* alias : {"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"}) {
    Status s = CheckDestinations(p_, {{Format::kJson, "-"}, {Format::kCsv, alias}});
    EXPECT_NE(s.message().find("only one report can go to stdout"), std::string::npos)
        << alias << ": " << s.message();
    EXPECT_TRUE(UsesStdout({{Format::kCsv, alias}})) << alias;
  }
}

TEST_F(OutputTest, ASymlinkIsWrittenThroughAndADanglingOneRefused) {
  std::string target = dir_.path() + "/target.json", link = dir_.path() + "/link.json";
  ASSERT_TRUE(p_.WriteTextFile(target, "old").ok());
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  ASSERT_TRUE(CheckDestinations(p_, {{Format::kJson, link}}).ok());
  std::ostringstream out;
  ASSERT_TRUE(WriteDestinations(p_, {{Format::kJson, link}}, report_, out).ok());
  EXPECT_EQ(p_.KindOfNoFollow(link), platform::PathKind::kSymlink) << "the link stays a link";
  EXPECT_NE(testing_support::Slurp(target).find("durprobe.report/1"), std::string::npos);
  std::string dangling = dir_.path() + "/dangling.json";
  ASSERT_EQ(::symlink((dir_.path() + "/missing/r.json").c_str(), dangling.c_str()), 0);
  Status s = CheckDestinations(p_, {{Format::kJson, dangling}});
  EXPECT_NE(s.message().find("is a symlink to a file that does not exist"), std::string::npos)
      << s.message();
}

TEST_F(OutputTest, WritesEachFormatAndLeavesNoTemporaryFile) {
  std::string json = dir_.path() + "/r.json", csv = dir_.path() + "/r.csv";
  std::ostringstream out;
  Status s = WriteDestinations(p_, {{Format::kJson, json}, {Format::kCsv, csv}}, report_, out);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(out.str().empty());
  EXPECT_NE(testing_support::Slurp(json).find("durprobe.report/1"), std::string::npos);
  EXPECT_EQ(testing_support::Slurp(csv).rfind("path,kind,", 0), 0u);
  Result<std::vector<std::string>> names = p_.ListDirectory(dir_.path());
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->size(), 2u);
}

TEST_F(OutputTest, ReplacesAnExistingReportWhole) {
  std::string json = dir_.path() + "/r.json";
  ASSERT_TRUE(p_.WriteTextFile(json, std::string(100000, '#')).ok());
  std::ostringstream out;
  ASSERT_TRUE(WriteDestinations(p_, {{Format::kJson, json}}, report_, out).ok());
  std::string text = testing_support::Slurp(json);
  EXPECT_EQ(text.find('#'), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
}

TEST_F(OutputTest, StdoutGetsTheDocument) {
  std::ostringstream out;
  ASSERT_TRUE(WriteDestinations(p_, {{Format::kMarkdown, "-"}}, report_, out).ok());
  EXPECT_EQ(out.str().rfind("# durprobe report", 0), 0u);
}

// summarize's and report's documents take the same path as a run's: each format its reporter,
// files written whole.
TEST_F(OutputTest, ASummaryGoesOutAsTableCsvAndJson) {
  explain::Summary summary;
  summary.rows.push_back(
      explain::SummaryRow{.host = "db-1", .path = "/var/lib/db", .fstype = "ext4"});
  std::string json = dir_.path() + "/s.json", csv = dir_.path() + "/s.csv";
  std::ostringstream out;
  Status s = WriteDestinations(
      p_, {{Format::kConsole, "-"}, {Format::kJson, json}, {Format::kCsv, csv}}, summary, out);
  ASSERT_TRUE(s.ok()) << s.message();
  std::ostringstream table, rows;
  render::console::WriteSummaryTable(summary.rows, table);
  render::csv::WriteSummaryCsv(summary.rows, rows);
  EXPECT_EQ(out.str(), table.str());
  EXPECT_EQ(testing_support::Slurp(csv), rows.str());
  EXPECT_EQ(nlohmann::json::parse(testing_support::Slurp(json)),
            render::json::SummaryJson(summary.rows));
  Result<std::vector<std::string>> names = p_.ListDirectory(dir_.path());
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->size(), 2u);  // no temporary file left
}

TEST_F(OutputTest, SavedReportsGoOutAsOnePage) {
  render::html::SavedReports saved{{{"a.json", report_}, {"b.json", report_}}};
  std::string page = dir_.path() + "/p.html";
  std::ostringstream out, direct;
  ASSERT_TRUE(WriteDestinations(p_, {{Format::kHtml, page}}, saved, out).ok());
  ASSERT_TRUE(WriteHtmlPage(saved.reports, direct).ok());
  EXPECT_EQ(testing_support::Slurp(page), direct.str());
}

TEST_F(OutputTest, AFormatWithoutAViewOfTheDocumentSaysSo) {
  std::ostringstream out;
  Status s =
      WriteDestinations(p_, {{Format::kMarkdown, dir_.path() + "/s.md"}}, explain::Summary{}, out);
  EXPECT_NE(s.message().find("the markdown format has no view of a summary"), std::string::npos)
      << s.message();
  s = WriteDestinations(p_, {{Format::kJson, "-"}}, render::html::SavedReports{}, out);
  EXPECT_NE(s.message().find("the json format has no view of saved reports"), std::string::npos)
      << s.message();
}

// A destination that is not a regular file (a FIFO here; /dev/null as the docs' benchmark uses
// it) gets the text in place: renaming over it would replace the pipe, or the device, by a file.
TEST_F(OutputTest, APipeOrDeviceIsWrittenInPlaceNotReplaced) {
  std::string fifo = dir_.path() + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // so the writer's open returns
  ASSERT_GE(reader, 0);
  explain::Summary summary;
  summary.rows.push_back(explain::SummaryRow{.host = "db-1", .path = "/d"});
  std::ostringstream out;
  Status s = WriteDestinations(p_, {{Format::kCsv, fifo}}, summary, out);
  EXPECT_TRUE(s.ok()) << s.message();
  char buf[4096];
  ssize_t n = ::read(reader, buf, sizeof buf);
  ::close(reader);
  std::ostringstream rows;
  render::csv::WriteSummaryCsv(summary.rows, rows);
  EXPECT_EQ(std::string(buf, n > 0 ? static_cast<std::size_t>(n) : 0), rows.str());
  struct stat st;
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the pipe was replaced by a file";
  Result<std::vector<std::string>> names = p_.ListDirectory(dir_.path());
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->size(), 1u);  // no temporary file either
}

}  // namespace
}  // namespace durprobe::output
