// SIGPIPE (issue 23, point 2): stdout piped to a reader that has gone (`| true`). The run must
// not die silently: it removes its scratch, still writes its file destinations, and exits
// 128 + SIGPIPE = 141 with one line on stderr naming SIGPIPE. Each command prints its console
// document whole at the end (issue 35 item 1), so the write that meets the closed pipe is the
// last thing it does; `| head -1` reads that document's first line, check's headline for check.
#include <gtest/gtest.h>
#include <signal.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/fault_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::CountLines;
using testing_support::ProcessesMentioning;
using testing_support::RunShell;
using testing_support::ScratchLeft;
using testing_support::Slurp;
using testing_support::TempDir;

struct PipedCommand {
  const char* name;
  const char* args;  // before --json FILE and the path
};

const PipedCommand kPiped[] = {
    {"RunQuick", "run --quick"},
    {"Probe", "probe --quick"},
    {"SqliteWorkloads", "sqlite --no-probes --workloads concurrency,locks --budget 6s"},
    {"Crashsim", "crashsim --journal-modes wal,delete --trials 20"},
    {"Check", "check --quick --max-sync-p99 10s"},
};

class OutputClosedTest : public ::testing::TestWithParam<PipedCommand> {};

TEST_P(OutputClosedTest, AClosedPipeEndsLikeAnInterruption) {
  TempDir dir, io;
  std::string json_path = io.path() + "/r.json";
  CliRun r = RunShell("bash -c '" DURPROBE_BINARY " " + std::string(GetParam().args) + " --json " +
                      json_path + " " + dir.path() + " 2>" + io.path() +
                      "/err | true; echo ${PIPESTATUS[0]} >" + io.path() + "/rc'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int code = std::atoi(Slurp(io.path() + "/rc").c_str());
  std::string err = Slurp(io.path() + "/err");
  // check's code for an interrupted run is its own (it is never a pass); the others exit 141.
  if (std::string(GetParam().name) == "Check") {
    EXPECT_NE(code, 0) << err;
  } else {
    EXPECT_EQ(code, 128 + SIGPIPE) << err;
  }
  EXPECT_EQ(CountLines(err), 1) << err;
  EXPECT_NE(err.find("interrupted by SIGPIPE (output closed)"), std::string::npos) << err;
  nlohmann::json j = nlohmann::json::parse(Slurp(json_path), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << "no JSON report written";
  // The pipe closed after the measuring: the report is whole.
  EXPECT_EQ(j["context"]["interrupted"], false);
  EXPECT_TRUE(ScratchLeft(dir.path()).empty());
  EXPECT_TRUE(ProcessesMentioning(dir.path()).empty());
}

TEST_P(OutputClosedTest, HeadReadsTheDocumentsFirstLine) {
  TempDir dir, io;
  CliRun r = RunShell("bash -c '" DURPROBE_BINARY " " + std::string(GetParam().args) + " " +
                      dir.path() + " 2>/dev/null | head -1 >" + io.path() + "/first'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string first = Slurp(io.path() + "/first");
  if (std::string(GetParam().name) == "Check") {
    EXPECT_EQ(first.rfind("check: ", 0), 0u) << first;  // the answer opens piped output too
  } else {
    EXPECT_EQ(first.rfind("LD_PRELOAD: ", 0), 0u) << first;  // the environment, then the paths
  }
  EXPECT_TRUE(ScratchLeft(dir.path()).empty());
}

// Issue 32, item 9: a report to a full or closed stdout was lost with exit 0. It is exit 2 with
// one line on stderr; a closed stdout is never reused by a file durprobe opens (the console
// report was written into whatever took descriptor 1).
struct LostOutput {
  const char* name;
  const char* args;      // the command, before the path or report
  const char* redirect;  // of stdout
};

const LostOutput kLost[] = {
    {"JsonToDevFull", "probe --quick --budget 1s --json -", ">/dev/full"},
    {"ConsoleToDevFull", "probe --quick --budget 1s", ">/dev/full"},
    {"ConsoleToClosedStdout", "probe --quick --budget 1s --json JSON", ">&-"},
    {"DiffToDevFull", "diff REPORT", ">/dev/full"},
    {"SummarizeCsvToClosedStdout", "summarize --csv -", ">&-"},
};

class LostOutputTest : public ::testing::TestWithParam<LostOutput> {};

TEST_P(LostOutputTest, IsExitTwoWithOneLine) {
  TempDir dir, io;
  std::string report = std::string(DURPROBE_SOURCE_DIR) + "/tests/fixtures/golden/reports/run.json";
  std::string args = GetParam().args;
  std::string json_path = io.path() + "/r.json";
  if (std::size_t at = args.find("JSON"); at != std::string::npos) args.replace(at, 4, json_path);
  if (std::size_t at = args.find("REPORT"); at != std::string::npos) args.replace(at, 6, report);
  bool reads = args.starts_with("diff") || args.starts_with("summarize");
  CliRun r =
      RunShell("bash -c '" DURPROBE_BINARY " " + args + " " + (reads ? report : dir.path()) + " " +
               GetParam().redirect + " 2>" + io.path() + "/err; echo $? >" + io.path() + "/rc'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string err = Slurp(io.path() + "/err");
  EXPECT_EQ(std::atoi(Slurp(io.path() + "/rc").c_str()), 2) << err;
  EXPECT_EQ(CountLines(err), 1) << err;
  EXPECT_NE(err.find("durprobe: error: "), std::string::npos) << err;
  EXPECT_TRUE(err.find("standard output") != std::string::npos) << err;
  if (args.find(json_path) != std::string::npos) {
    nlohmann::json j = nlohmann::json::parse(Slurp(json_path), nullptr, false);
    EXPECT_FALSE(j.is_discarded())
        << "the file destination was not written whole: " << Slurp(json_path).substr(0, 200);
  }
  EXPECT_TRUE(ScratchLeft(dir.path()).empty());
}

INSTANTIATE_TEST_SUITE_P(LostOutput, LostOutputTest, ::testing::ValuesIn(kLost),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

INSTANTIATE_TEST_SUITE_P(OutputClosed, OutputClosedTest, ::testing::ValuesIn(kPiped),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

}  // namespace
}  // namespace durprobe
