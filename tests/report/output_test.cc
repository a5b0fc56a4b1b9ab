#include "report/output.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/cli_runner.h"
#include "tests/test_dirs.h"

namespace durprobe::report {
namespace {

class OutputTest : public ::testing::Test {
 protected:
  platform::Platform& p_ = platform::Default();
  testing_support::TempDir dir_;
  Report report_;
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

TEST_F(OutputTest, RejectsADirectoryTwoStdoutsAndTheSameFileTwice) {
  EXPECT_FALSE(CheckDestinations(p_, {{Format::kJson, dir_.path()}}).ok());
  EXPECT_FALSE(CheckDestinations(p_, {{Format::kJson, "-"}, {Format::kCsv, "-"}}).ok());
  std::string f = dir_.path() + "/x";
  EXPECT_FALSE(CheckDestinations(p_, {{Format::kJson, f}, {Format::kCsv, f}}).ok());
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

}  // namespace
}  // namespace durprobe::report
