// diff on fixtures with a known cause attributes that cause; bad input gets one line and exit 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

std::string Fixture(const std::string& name) {
  return std::string(DURPROBE_SOURCE_DIR) + "/tests/fixtures/diff/" + name;
}

nlohmann::json DiffJson(const std::string& b) {
  testing_support::CliRun run =
      testing_support::RunDurprobe("diff --json - " + Fixture("a.json") + " " + Fixture(b));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return nlohmann::json::parse(run.out);
}

TEST(DiffCliTest, SlowerFlushIsSyncLatency) {
  nlohmann::json j = DiffJson("b_sync_latency.json");
  EXPECT_EQ(j["schema"], "durprobe.diff/1");
  EXPECT_EQ(j["verdict"]["factor"], "sync_latency");
  ASSERT_EQ(j["configs"].size(), 2u);
  for (const auto& c : j["configs"]) {
    double sum = c["shares"]["sync_latency"].get<double>() +
                 c["shares"]["sync_count"].get<double>() + c["shares"]["non_sync"].get<double>();
    EXPECT_NEAR(sum, 1.0, 1e-6);
    EXPECT_NEAR(c["shares"]["sync_latency"].get<double>(), 1.0, 1e-3);
  }
  bool fstype_listed = false;
  for (const auto& d : j["differences"]) fstype_listed |= d["key"] == "mount.fstype";
  EXPECT_TRUE(fstype_listed) << j["differences"].dump();
}

TEST(DiffCliTest, MoreSyncsIsSyncCount) {
  nlohmann::json j = DiffJson("b_sync_count.json");
  EXPECT_EQ(j["verdict"]["factor"], "sync_count");
  bool version_listed = false;
  for (const auto& d : j["differences"]) version_listed |= d["key"] == "context.sqlite_version";
  EXPECT_TRUE(version_listed);
}

TEST(DiffCliTest, TimeOutsideSyncsIsNonSync) {
  EXPECT_EQ(DiffJson("b_non_sync.json")["verdict"]["factor"], "non_sync");
}

TEST(DiffCliTest, NothingInCommonIsConfiguration) {
  nlohmann::json j = DiffJson("b_no_common.json");
  EXPECT_EQ(j["verdict"]["factor"], "configuration");
  EXPECT_TRUE(j["configs"].empty());
}

TEST(DiffCliTest, TableNamesTheVerdict) {
  testing_support::CliRun run = testing_support::RunDurprobe("diff " + Fixture("a.json") + " " +
                                                             Fixture("b_sync_latency.json"));
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.out.find("verdict: sync_latency"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nWAL      FULL "), std::string::npos) << run.out;
}

void ExpectOneLineError(const std::string& args, const std::string& needle) {
  testing_support::CliRun run = testing_support::RunDurprobe(args);
  EXPECT_EQ(run.exit_code, 2) << args;
  EXPECT_EQ(testing_support::CountLines(run.err), 1) << run.err;
  EXPECT_NE(run.err.find(needle), std::string::npos) << run.err;
}

TEST(DiffCliTest, BadInputs) {
  std::string a = Fixture("a.json");
  ExpectOneLineError("diff " + a + " " + Fixture("malformed.json"), "syntax error at byte");
  ExpectOneLineError("diff " + a + " " + Fixture("truncated.json"), "ends early");
  ExpectOneLineError("diff " + a + " " + Fixture("wrong_schema.json"),
                     "schema is 'durprobe.compare/1'");
  ExpectOneLineError("diff " + a + " /nonexistent/report.json", "does not exist");
  // It said only "B is required": what diff needs, and its usage.
  ExpectOneLineError("diff " + a,
                     "diff needs two saved reports and got one (" + a +
                         "): durprobe diff A.json B.json (each from durprobe run --json FILE");
  ExpectOneLineError("diff", "diff needs two saved reports and got none");
  // Found by the fuzzer: a number beyond a double aborted diff (status 134).
  ExpectOneLineError("diff " + a + " " + std::string(DURPROBE_SOURCE_DIR) +
                         "/tests/fixtures/fuzz/report_json/crash-number-overflow.json",
                     "a number too large to represent");
}

TEST(DiffCliTest, DashReadsTheReportFromStandardInput) {
  std::string binary = DURPROBE_BINARY;
  testing_support::CliRun as_b =
      testing_support::RunShell("cat " + Fixture("b_sync_latency.json") + " | " + binary +
                                " diff --json - " + Fixture("a.json") + " -");
  ASSERT_EQ(as_b.exit_code, 0) << as_b.err;
  nlohmann::json j = nlohmann::json::parse(as_b.out);
  EXPECT_EQ(j["verdict"]["factor"], "sync_latency");
  EXPECT_EQ(j["b"], "- (standard input)");
  testing_support::CliRun as_a = testing_support::RunShell(
      "cat " + Fixture("a.json") + " | " + binary + " diff - " + Fixture("b_sync_count.json"));
  ASSERT_EQ(as_a.exit_code, 0) << as_a.err;
  EXPECT_NE(as_a.out.find("a = - (standard input)"), std::string::npos) << as_a.out;
  EXPECT_NE(as_a.out.find("verdict: sync_count"), std::string::npos) << as_a.out;
}

TEST(DiffCliTest, StandardInputErrors) {
  std::string binary = DURPROBE_BINARY;
  testing_support::ExpectUsageError(testing_support::RunDurprobe("diff - -"), "only one of A and B",
                                    "diff - -");
  testing_support::ExpectUsageError(testing_support::RunDurprobe("diff - " + Fixture("a.json")),
                                    "standard input is empty", "diff - with nothing piped");
  testing_support::ExpectUsageError(
      testing_support::RunShell("cat " + Fixture("truncated.json") + " | " + binary + " diff - " +
                                Fixture("a.json")),
      "standard input: not valid JSON: it ends early", "diff - with a truncated report");
}

TEST(DiffCliTest, SeveralPathsArePairedOrChosen) {
  testing_support::CliRun paired = testing_support::RunDurprobe(
      "diff --json - " + Fixture("two_paths_a.json") + " " + Fixture("two_paths_b.json"));
  ASSERT_EQ(paired.exit_code, 0) << paired.err;
  EXPECT_EQ(nlohmann::json::parse(paired.out)["pairs"].size(), 2u);
  testing_support::ExpectUsageError(
      testing_support::RunDurprobe("diff " + Fixture("two_paths_a.json") + " " + Fixture("a.json")),
      "choose the pair with --path A_PATH --path B_PATH", "diff with 2 paths against 1");
  testing_support::CliRun chosen =
      testing_support::RunDurprobe("diff --path /var/lib/other --path /var/lib/app --json - " +
                                   Fixture("two_paths_a.json") + " " + Fixture("a.json"));
  ASSERT_EQ(chosen.exit_code, 0) << chosen.err;
  nlohmann::json j = nlohmann::json::parse(chosen.out);
  ASSERT_EQ(j["pairs"].size(), 1u);
  EXPECT_EQ(j["pairs"][0]["a_path"], "/var/lib/other");
  testing_support::ExpectUsageError(
      testing_support::RunDurprobe("diff --path /var/lib/app " + Fixture("a.json") + " " +
                                   Fixture("a.json")),
      "--path comes twice", "diff with one --path");
}

TEST(DiffCliTest, ProbeReportsGetAProbeTable) {
  testing_support::CliRun run = testing_support::RunDurprobe("diff " + Fixture("probes_a.json") +
                                                             " " + Fixture("probes_b_sync.json"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("fdatasync overwrite 4 KiB"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("verdict: sync_latency"), std::string::npos) << run.out;
}

TEST(DiffCliTest, MissingRequiredKeyIsNamedWithItsPath) {
  std::string binary = DURPROBE_BINARY;
  testing_support::ExpectUsageError(
      testing_support::RunShell("sed '/\"commits_per_sec\": 1016/d' " + Fixture("a.json") + " | " +
                                binary + " diff - " + Fixture("a.json")),
      "targets[0].sqlite[1].commits_per_sec: missing required key", "diff with a key removed");
}

}  // namespace
}  // namespace durprobe
