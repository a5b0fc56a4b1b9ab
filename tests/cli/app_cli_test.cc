// The command line itself: usage, help, unknown commands, list options that leave the paths
// alone, output destinations checked before measuring, and what an interruption keeps.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/app.h"
#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::RunDurprobe;
using testing_support::RunShell;
using testing_support::TempDir;

TEST(AppCliTest, NoArgumentsPrintsAShortUsageAndExits2) {
  CliRun r = RunDurprobe("");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("usage: durprobe COMMAND"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(AppCliTest, HelpListsCommandsAndHelpCommandShowsOptionsWithDefaults) {
  CliRun all = RunDurprobe("help");
  EXPECT_EQ(all.exit_code, 0);
  EXPECT_NE(all.out.find("compare"), std::string::npos);
  CliRun one = RunDurprobe("help sqlite");
  EXPECT_EQ(one.exit_code, 0);
  EXPECT_NE(one.out.find("--journal-modes"), std::string::npos);
  EXPECT_NE(one.out.find("--repetitions UINT:in 1..1000=5"), std::string::npos) << one.out;
  CliRun bad = RunDurprobe("help sqlitee");
  testing_support::ExpectUsageError(bad, "unknown command 'sqlitee'", "help sqlitee");
}

TEST(AppCliTest, AMisspelledCommandIsNamedWithTheClosestOne) {
  testing_support::ExpectUsageError(RunDurprobe("prboe"),
                                    "unknown command 'prboe' (did you mean 'probe'?)", "prboe");
  testing_support::ExpectUsageError(RunDurprobe("xyzzyq"), "unknown command 'xyzzyq'", "xyzzyq");
  EXPECT_EQ(cli::ClosestCommand("compre", {"compare", "clean"}), "compare");
  EXPECT_EQ(cli::ClosestCommand("zzzzzz", {"compare", "clean"}), "");
}

TEST(AppCliTest, ACommandOfCommandsNamesThemWhenGivenNoneOrAnother) {
  testing_support::ExpectUsageError(RunDurprobe("powercut"),
                                    "powercut takes one of: witness, write, verify", "powercut");
  testing_support::ExpectUsageError(RunDurprobe("powercut wirte /tmp"),
                                    "unknown powercut command 'wirte': powercut takes one of",
                                    "powercut wirte");
  CliRun help = RunDurprobe("powercut --help");
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find("witness"), std::string::npos) << help.out;
}

TEST(AppCliTest, VersionOnEveryCommand) {
  for (const char* cmd : {"run", "probe", "sqlite", "compare", "inspect", "diff", "clean"}) {
    CliRun r = RunDurprobe(std::string(cmd) + " -V");
    EXPECT_EQ(r.exit_code, 0) << cmd << r.err;
    EXPECT_NE(r.out.find("SQLite 3."), std::string::npos) << cmd;
  }
}

TEST(AppCliTest, InspectOffersNoMeasuringOptions) {
  TempDir dir;
  testing_support::ExpectUsageError(RunDurprobe("inspect --quick " + dir.path()), "--quick",
                                    "inspect --quick");
}

TEST(AppCliTest, ListOptionsNeverSwallowThePathsAfterThem) {
  TempDir a, b;
  // docs/diagnose.md's command line, with a dry run so nothing is measured.
  CliRun r = RunDurprobe(
      "compare --dry-run --budget 40s --journal-modes delete,wal "
      "--synchronous full " +
      a.path() + " " + b.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json plan = nlohmann::json::parse(r.out);
  EXPECT_EQ(plan["paths"].size(), 2u);
  EXPECT_EQ(plan["sqlite_configs"].size(), 2u);
  CliRun s = RunDurprobe("sqlite --dry-run --batch 1,10 --statement reused " + a.path());
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(nlohmann::json::parse(s.out)["paths"][0], a.path());
}

TEST(AppCliTest, OneWordingForAValueThatIsNotOneOfTheValidOnes) {
  TempDir dir;
  for (const std::string& args :
       {"sqlite --synchronous ful " + dir.path(), "probe --primitives fsyncc " + dir.path(),
        "sqlite --workloads reed " + dir.path()}) {
    CliRun r = RunDurprobe(args);
    testing_support::ExpectUsageError(r, "is not one of", args);
  }
}

TEST(AppCliTest, OneWordingForANumberOutOfItsRange) {
  TempDir dir;
  testing_support::ExpectUsageError(RunDurprobe("sqlite --repetitions 0 " + dir.path()),
                                    "--repetitions: '0' is not in 1..1000", "repetitions 0");
  testing_support::ExpectUsageError(RunDurprobe("probe --ci 200 " + dir.path()),
                                    "--ci: '200' is not in 0.1..100", "ci 200");
  testing_support::ExpectUsageError(RunDurprobe("compare --rounds x " + dir.path() + " /tmp"),
                                    "--rounds: 'x' is not a number (expected 1..100)", "rounds x");
}

TEST(AppCliTest, ABadDestinationFailsBeforeMeasuring) {
  TempDir dir;
  auto start = std::chrono::steady_clock::now();
  CliRun r = RunDurprobe("run --json /nonexistent-dir/r.json " + dir.path());
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  testing_support::ExpectUsageError(r,
                                    "--json /nonexistent-dir/r.json: directory "
                                    "/nonexistent-dir does not exist",
                                    "bad --json");
  // A 60 s run that had started measuring would take seconds; this is a behaviour check with a
  // generous bound, not a benchmark.
  EXPECT_LT(seconds, 5.0);
}

TEST(AppCliTest, CsvAndMarkdownTablesParse) {
  TempDir dir;
  std::string csv = dir.path() + "/r.csv", md = dir.path() + "/r.md";
  CliRun r = RunDurprobe(
      "probe --budget 300ms --primitives none,fdatasync --patterns overwrite "
      "--csv " +
      csv + " --markdown " + md + " -q " + dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  std::string text = testing_support::Slurp(csv);
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find("\r\n", start)) != std::string::npos; start = nl + 2) {
    lines.push_back(text.substr(start, nl - start));
  }
  ASSERT_EQ(lines.size(), 3u) << text;  // header + two probes
  auto commas = [](const std::string& l) { return std::count(l.begin(), l.end(), ','); };
  EXPECT_EQ(commas(lines[1]), commas(lines[0]));
  EXPECT_EQ(commas(lines[2]), commas(lines[0]));
  EXPECT_NE(lines[2].find(",probe,fdatasync,overwrite,4096,"), std::string::npos) << lines[2];
  std::string markdown = testing_support::Slurp(md);
  EXPECT_NE(markdown.find("| primitive | pattern |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| fdatasync | overwrite | 4 KiB | ok |"), std::string::npos) << markdown;
}

TEST(AppCliTest, ContextRecordsTheOptionsAndTheCommandLine) {
  TempDir dir;
  CliRun r = RunDurprobe("probe --quick --budget 400ms --primitives none --json - " + dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json c = nlohmann::json::parse(r.out)["context"];
  EXPECT_EQ(c["options"]["quick"], true);
  EXPECT_EQ(c["options"]["budget_ns"], 400'000'000);
  EXPECT_EQ(c["options"]["probes"].size(), 2u);  // none overwrite and append
  EXPECT_NE(c["command_line"].get<std::string>().find("--primitives none"), std::string::npos);
  EXPECT_EQ(c["interrupted"], false);
}

// SIGINT half way: the JSON keeps the rows that finished, marks the run interrupted and lists
// what never started; exit 130; no scratch left. The signal follows an event, not a sleep: the
// fault layer holds each fdatasync 300 ms, and the signal comes once -v logs the third probe
// (the first fdatasync one) starting, so the two "none" probes have finished and two remain.
TEST(AppCliTest, InterruptedRunKeepsWhatFinished) {
  TempDir dir;
  std::string json = dir.path() + "/r.json";
  std::string err = dir.path() + "/err";
  std::string target = dir.path() + "/t";
  ASSERT_TRUE(platform::Default().MakeDirectory(target).ok());
  CliRun r = RunShell(
      "env LD_PRELOAD=" DURPROBE_FAULTLIB
      " DURPROBE_FAULT_PATH='*/.durprobe-scratch-*/*' "
      "DURPROBE_FAULT_DELAY_MS=300 " DURPROBE_BINARY
      " probe -v --budget 6s --ci 0.1 --primitives none,fdatasync --patterns overwrite,append "
      "--json " +
      json + " " + target + " 2>" + err +
      " & pid=$!; i=0; while [ $i -lt 600 ] && ! grep -qF '[probe 3/4]' " + err +
      "; do sleep 0.1; i=$((i+1)); done; kill -INT $pid; wait $pid; rc=$?; cat " + err +
      " >&2; exit $rc");
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted by SIGINT"), std::string::npos) << r.err;
  nlohmann::json j = nlohmann::json::parse(testing_support::Slurp(json));
  EXPECT_EQ(j["context"]["interrupted"], true);
  const nlohmann::json& t = j["targets"][0];
  ASSERT_GE(t["probes"].size(), 1u);
  EXPECT_EQ(t["probes"][0]["status"], "ok");
  EXPECT_EQ(t["probes"].size() + t.value("unfinished", nlohmann::json::array()).size(), 4u)
      << t.dump();
  EXPECT_NE(r.out.find("Raw sync primitives"), std::string::npos) << r.out;
  Result<std::vector<std::string>> left = platform::Default().ListDirectory(target);
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(left->empty());
}

}  // namespace
}  // namespace durprobe
