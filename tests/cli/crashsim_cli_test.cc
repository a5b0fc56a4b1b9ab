// The crashsim subcommand end to end: exit status, the JSON keys, the console summary, bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::RunDurprobe;

TEST(CrashsimCliTest, RunsAndWritesTheContractKeys) {
  std::string dir = testing_support::MakeTempDir("crashsim-cli");
  testing_support::CliRun r =
      RunDurprobe("crashsim " + dir +
                  " --trials 4 --journal-modes wal,delete --synchronous full,OFF"
                  " --commits 4 --seed 5 --json -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["context"]["command"], "crashsim");
  const nlohmann::json& rows = doc["targets"][0]["crashsim"];
  ASSERT_EQ(rows.size(), 4u);
  for (const nlohmann::json& e : rows) {
    for (const char* key : {"journal_mode", "synchronous", "rows_per_commit", "trials", "corrupt",
                            "lost_commits", "trials_with_loss", "crash_states", "seed"}) {
      EXPECT_TRUE(e.contains(key)) << key << " in " << e.dump();
    }
    EXPECT_TRUE(e["lost_commits"].contains("max"));
    EXPECT_TRUE(e["lost_commits"].contains("mean"));
    EXPECT_EQ(e["trials"], 4);
    EXPECT_EQ(e["seed"], 5);
  }
  EXPECT_EQ(rows[0]["journal_mode"], "WAL");
  EXPECT_EQ(rows[0]["synchronous"], "FULL");
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << "scratch removed";

  testing_support::CliRun console =
      RunDurprobe("crashsim " + dir + " --trials 2 --journal-modes persist --synchronous normal");
  EXPECT_EQ(console.exit_code, 0) << console.err;
  EXPECT_NE(console.out.find("distinct crash states tried in 2 trials"), std::string::npos)
      << console.out;
  std::filesystem::remove_all(dir);
}

// Issue 35 item 3: crashsim knows its path, so its summary says what the path is and the
// durability verdict is not held back by an unidentified mount; piped, the summary's "(table
// below)" points at a table that is below it.
TEST(CrashsimCliTest, InspectsItsPathAndTheSummaryOpensTheDocument) {
  std::string dir = testing_support::MakeTempDir("crashsim-inspect");
  testing_support::CliRun r =
      RunDurprobe("crashsim " + dir + " --trials 2 --journal-modes wal --synchronous full");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("not inspected by this command"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("the mount was not identified"), std::string::npos) << r.out;
  std::size_t summary = r.out.find("\nSummary:\n");
  std::size_t table = r.out.find("\nSimulated power cuts");
  ASSERT_NE(summary, std::string::npos) << r.out;
  EXPECT_LT(summary, table) << r.out;
  std::filesystem::remove_all(dir);
}

// Issue 35 item 4: README, durability.md and sqlite.md say `sqlite --crashsim` puts its loss
// columns in the matrix; piped, the matrix was printed row by row without them.
TEST(CrashsimCliTest, SqliteCrashsimPutsItsLossColumnsInThePipedMatrix) {
  testing_support::TempDir dir;
  testing_support::CliRun r = RunDurprobe(
      "sqlite --quick --budget 2s --no-probes --journal-modes wal --synchronous full,normal "
      "--crashsim --crashsim-trials 3 " +
      dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::size_t matrix = r.out.find("\nSQLite commits");
  std::size_t header = r.out.find("crash: lost  corrupt  power-loss risk", matrix);
  ASSERT_NE(matrix, std::string::npos) << r.out;
  EXPECT_NE(header, std::string::npos) << r.out;
  EXPECT_LT(header, r.out.find("\nSimulated power cuts")) << r.out;
}

TEST(CrashsimCliTest, BadInputExitsTwoWithOneLine) {
  auto expect_usage = [](const std::string& args, const std::string& needle) {
    testing_support::ExpectUsageError(RunDurprobe("crashsim " + args), needle, args);
  };
  expect_usage("--trials 0 .", "--trials");
  expect_usage("--trials many .", "--trials");
  expect_usage("--device quantum .", "'quantum' is not one of atomic_sectors");
  expect_usage("--synchronous fulll .", "'fulll' is not one of");
  expect_usage("/no/such/dir", "does not exist");
}

}  // namespace
}  // namespace durprobe
