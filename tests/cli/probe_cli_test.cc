// The binary end to end: bad input gets one line naming the problem and exit 2; a quick probe
// writes a JSON report with the contract keys; signals clean up; clean removes only leftovers.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "platform/scratch.h"
#include "tests/cli_runner.h"
#include "text/utf8.h"

namespace durprobe {
namespace {

using testing_support::CountLines;
using testing_support::ExpectDurprobeUsageError;
using testing_support::RunDurprobe;
using testing_support::TempDir;

TEST(ProbeCliTest, MissingPath) {
  ExpectDurprobeUsageError("probe /nonexistent/durprobe-path",
                           "'/nonexistent/durprobe-path' does not exist");
  ExpectDurprobeUsageError("/nonexistent/durprobe-path", "does not exist");  // run is the default
}

TEST(ProbeCliTest, FileInsteadOfDirectory) {
  TempDir dir;
  std::string file = dir.path() + "/plain-file";
  ASSERT_TRUE(platform::Default().WriteTextFile(file, "x").ok());
  ExpectDurprobeUsageError("probe " + file, "is not a directory");
}

TEST(ProbeCliTest, UnknownPrimitive) {
  TempDir dir;
  ExpectDurprobeUsageError("probe --primitives fsync,fsyncc " + dir.path(), "fsyncc");
}

TEST(ProbeCliTest, BadSizeAndDuration) {
  TempDir dir;
  ExpectDurprobeUsageError("probe --sizes 4k,huge " + dir.path(), "invalid size 'huge'");
  ExpectDurprobeUsageError("probe --budget 10parsecs " + dir.path(),
                           "invalid duration '10parsecs'");
  ExpectDurprobeUsageError("probe --primitives dir_fsync --patterns append " + dir.path(),
                           "dir_fsync");
}

TEST(ProbeCliTest, UnknownOptionAndSubcommandArgument) {
  ExpectDurprobeUsageError("probe --frobnicate .", "frobnicate");
}

TEST(ProbeCliTest, VersionNamesSqliteAndBuildType) {
  testing_support::CliRun run = RunDurprobe("--version");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.out.find("durprobe "), std::string::npos);
  EXPECT_NE(run.out.find("SQLite 3."), std::string::npos);
  EXPECT_NE(run.out.find(" build"), std::string::npos);
}

TEST(ProbeCliTest, QuickProbeWritesTheJsonReport) {
  TempDir dir;
  testing_support::CliRun run =
      RunDurprobe("probe --quick --budget 2s --primitives fdatasync,none --json - " + dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["schema"], "durprobe.report/1");
  EXPECT_EQ(j["context"]["command"], "probe");
  ASSERT_EQ(j["targets"].size(), 1u);
  EXPECT_EQ(j["targets"][0]["path"], dir.path());
  EXPECT_EQ(j["targets"][0]["probes"].size(), 4u);  // 2 primitives x 2 patterns
  for (const auto& p : j["targets"][0]["probes"]) {
    EXPECT_EQ(p["status"], "ok") << p.dump();
    EXPECT_GT(p["ops"].get<int>(), 0);
  }
  auto names = platform::Default().ListDirectory(dir.path());
  ASSERT_TRUE(names.ok());
  EXPECT_TRUE(names->empty()) << "left behind: " << names->front();
}

TEST(ProbeCliTest, RepeatWritesEachProbesSpreadOverTheRepeats) {
  TempDir dir;
  testing_support::CliRun run = RunDurprobe(
      "probe --quick --repeat 2 --budget 1s --primitives fdatasync,none --json - " + dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["context"]["options"]["repeat"], 2);
  EXPECT_EQ(j["context"]["options"]["budget_per"], "repeat");
  ASSERT_EQ(j["targets"][0]["probes"].size(), 4u);
  for (const auto& p : j["targets"][0]["probes"]) {
    ASSERT_TRUE(p.contains("repeats")) << p.dump();
    EXPECT_EQ(p["repeats"]["p50_ns"]["n"], 2) << p.dump();
    EXPECT_EQ(p["repeats"]["ops_per_sec"]["n"], 2) << p.dump();
    EXPECT_LE(p["repeats"]["p50_ns"]["min"], p["repeats"]["p50_ns"]["median"]);
    EXPECT_LE(p["repeats"]["p50_ns"]["median"], p["repeats"]["p50_ns"]["max"]);
  }
}

TEST(ProbeCliTest, ARepeatCountOutOfRangeIsAOneLineUsageError) {
  for (const char* bad : {"0", "101", "three"}) {
    testing_support::CliRun run = RunDurprobe(std::string("probe --repeat ") + bad + " .");
    EXPECT_EQ(run.exit_code, 2) << bad;
    EXPECT_NE(run.err.find("--repeat: '" + std::string(bad) + "'"), std::string::npos) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  }
}

TEST(ProbeCliTest, JsonToAFileKeepsTheTableOnStdout) {
  TempDir dir, out;
  std::string json = out.path() + "/report.json";
  testing_support::CliRun run =
      RunDurprobe("probe --budget 500ms --primitives none --json " + json + " " + dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("primitive"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(testing_support::Slurp(json))["schema"], "durprobe.report/1");
}

class SignalTest : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(SignalTest, RemovesScratchAndExitsWith128PlusSignal) {
  auto [signal_name, expected_rc] = GetParam();
  TempDir dir, io;
  std::string cmd = "(" + std::string(DURPROBE_BINARY) +
                    " probe --budget 60s --ci 0.1 --primitives fsync --sizes 4k,8k,16k,32k,64k " +
                    dir.path() + " >/dev/null 2>" + io.path() + "/err & pid=$!; sleep 1; " +
                    "ls -a " + dir.path() + " > " + io.path() + "/during; kill -" + signal_name +
                    " $pid; wait $pid; " + "echo $? > " + io.path() + "/rc)";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_NE(testing_support::Slurp(io.path() + "/during").find(".durprobe-scratch-"),
            std::string::npos);
  EXPECT_EQ(testing_support::Slurp(io.path() + "/rc"), expected_rc);
  EXPECT_EQ(CountLines(testing_support::Slurp(io.path() + "/err")), 1);
  auto names = platform::Default().ListDirectory(dir.path());
  ASSERT_TRUE(names.ok());
  EXPECT_TRUE(names->empty()) << "left behind: " << names->front();
}

INSTANTIATE_TEST_SUITE_P(ProbeCliTest, SignalTest,
                         ::testing::Values(std::make_pair("INT", "130\n"),
                                           std::make_pair("TERM", "143\n")),
                         [](const auto& param_info) {
                           return std::string(param_info.param.first);
                         });

TEST(ProbeCliTest, CleanRemovesOnlyLeftoversOfKilledRuns) {
  TempDir dir;
  std::string left = dir.path() + "/" + std::string(platform::kScratchPrefix) + "999999-0";
  ASSERT_TRUE(platform::Default().MakeDirectory(left).ok());
  ASSERT_TRUE(
      platform::Default()
          .WriteTextFile(left + "/" + std::string(platform::kScratchMarker),
                         std::string(platform::kScratchMarkerFirstLine) + "\npid=2147483000\n")
          .ok());
  ASSERT_TRUE(platform::Default().MakeDirectory(dir.path() + "/mine").ok());
  testing_support::CliRun run = RunDurprobe("clean " + dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("removed " + left), std::string::npos) << run.out;
  EXPECT_EQ(platform::Default().KindOf(left), platform::PathKind::kMissing);
  EXPECT_EQ(platform::Default().KindOf(dir.path() + "/mine"), platform::PathKind::kDirectory);
}

// probe on a directory named with byte 0xff: the table on stdout and a valid JSON file with
// the path's exact bytes.
TEST(ProbeCliTest, PathThatIsNotUtf8) {
  TempDir dir;
  std::string bad = dir.path() + "/bad-\xff";
  ASSERT_TRUE(platform::Default().MakeDirectory(bad).ok());
  std::string json = dir.path() + "/report.json";
  testing_support::CliRun run =
      RunDurprobe("probe --quick --budget 1s --primitives none --json " + json + " '" + bad + "'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("none"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("primitive"), std::string::npos) << run.out;
  nlohmann::json j = nlohmann::json::parse(testing_support::Slurp(json));
  EXPECT_EQ(j["targets"][0]["path_bytes"], text::HexBytes(bad));
  EXPECT_FALSE(j["targets"][0]["probes"].empty());
}

}  // namespace
}  // namespace durprobe
