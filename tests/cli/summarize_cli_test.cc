// `durprobe summarize` from the binary: reports of several hosts, a malformed one skipped with a
// one-line warning naming the file, and the exit status when nothing could be read.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"
#include "tests/fixtures.h"
#include "tests/test_dirs.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::FixturePath;
using testing_support::RunDurprobe;

TEST(SummarizeCliTest, SkipsAMalformedReportWithOneWarningLine) {
  std::string dir = FixturePath("summary");
  CliRun run = RunDurprobe("summarize " + dir + "/fast.json " + dir + "/malformed.json " + dir +
                           "/slow.json " + dir + "/old.json");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(testing_support::CountLines(run.err), 1) << run.err;
  EXPECT_EQ(run.err.rfind("durprobe: warning: skipping " + dir + "/malformed.json: ", 0), 0u)
      << run.err;
  // the summary line, the heading, 3 rows and the legend
  EXPECT_EQ(testing_support::CountLines(run.out), 6) << run.out;
  EXPECT_LT(run.out.find("db-slow"), run.out.find("db-fast"));  // worst first
}

TEST(SummarizeCliTest, JsonSortedByAKey) {
  std::string dir = FixturePath("summary");
  CliRun run = RunDurprobe("summarize --sort sync_p50 --json - " + dir + "/fast.json " + dir +
                           "/slow.json " + dir + "/old.json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["rows"].size(), 3u);
  EXPECT_EQ(j["rows"][0]["host"], "db-slow");
  EXPECT_EQ(j["rows"][1]["host"], "db-old");
  EXPECT_EQ(j["rows"][2]["host"], "db-fast");
}

TEST(SummarizeCliTest, NothingReadableIsExitTwo) {
  CliRun run = RunDurprobe("summarize " + FixturePath("summary/malformed.json"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("none of the reports could be read"), std::string::npos) << run.err;
  testing_support::ExpectUsageError(RunDurprobe("summarize --sort speed x.json"), "speed",
                                    "bad sort key");
}

TEST(SummarizeCliTest, DestinationsAreCheckedBeforeAnyReportIsRead) {
  std::string dir = FixturePath("summary");
  testing_support::ExpectUsageError(
      RunDurprobe("summarize --csv /no/such/dir/s.csv " + dir + "/missing.json"),
      "--csv /no/such/dir/s.csv: directory /no/such/dir does not exist", "unwritable csv");
  testing_support::ExpectUsageError(RunDurprobe("summarize --csv - --json - " + dir + "/fast.json"),
                                    "only one report can go to stdout", "two stdouts");
}

TEST(SummarizeCliTest, CsvAndJsonFilesAreWrittenAndTheTableStillPrinted) {
  testing_support::TempDir out;
  std::string dir = FixturePath("summary");
  CliRun run = RunDurprobe("summarize -j " + out.path() + "/s.json --csv " + out.path() +
                           "/s.csv " + dir + "/fast.json " + dir + "/slow.json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // the summary line, the heading, 2 rows and the legend
  EXPECT_EQ(testing_support::CountLines(run.out), 5) << run.out;
  nlohmann::json j = nlohmann::json::parse(testing_support::Slurp(out.path() + "/s.json"));
  EXPECT_EQ(j["schema"], "durprobe.summary/1");
  EXPECT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(testing_support::CountLines(testing_support::Slurp(out.path() + "/s.csv")), 3);
}

}  // namespace
}  // namespace durprobe
