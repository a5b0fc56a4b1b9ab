// The sqlite subcommand end to end: option errors, the JSON contract keys, the exit status.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::ExpectSqliteUsageError;
using testing_support::RunShell;

TEST(SqliteCliTest, BadOptionsExitTwoWithOneLineNamingTheValidValues) {
  ExpectSqliteUsageError("--journal-modes wal,bogus .",
                         "'bogus' is not one of delete, memory, off, persist, truncate, wal");
  ExpectSqliteUsageError("--synchronous fulll .", "'fulll' is not one of extra, full, normal, off");
  ExpectSqliteUsageError("--statement prepared .", "'prepared' is not one of per_row, reused");
  ExpectSqliteUsageError("--batch 0 .", "--batch");
  ExpectSqliteUsageError("--payload 3q .", "--payload");
  ExpectSqliteUsageError("--payload 2MiB .", "--payload must be between");
  ExpectSqliteUsageError("/no/such/dir", "does not exist");
}

TEST(SqliteCliTest, JsonCarriesTheContractKeysForEveryConfiguration) {
  std::string dir = testing_support::MakeTempDir("sqlite-cli");
  std::string cmd = std::string(DURPROBE_BINARY) + " sqlite " + dir +
                    " --journal-modes DELETE,wal --synchronous full,OFF --batch 1,10"
                    " --commits 3 --repetitions 2 --warmup 1 --budget 3s --json -";
  testing_support::CliRun r = RunShell(cmd);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["schema"], "durprobe.report/1");
  const nlohmann::json& ctx = doc["context"]["sqlite"];
  for (const char* key : {"version", "default_synchronous", "default_wal_synchronous", "dirsync",
                          "compile_options"}) {
    EXPECT_TRUE(ctx.contains(key)) << key;
  }
  const nlohmann::json& rows = doc["targets"][0]["sqlite"];
  ASSERT_EQ(rows.size(), 8u);  // 2 journal modes x 2 levels x 2 batch sizes
  for (const nlohmann::json& e : rows) {
    for (const char* key :
         {"journal_mode", "synchronous", "rows_per_commit", "commits_per_sec", "latency_ns",
          "syncs_per_commit", "sync_time_share", "predicted_commit_ns", "explained_share"}) {
      EXPECT_TRUE(e.contains(key)) << key << " in " << e.dump();
    }
    for (const char* key : {"total", "db", "journal", "wal", "dir"}) {
      EXPECT_TRUE(e["syncs_per_commit"].contains(key)) << key;
    }
    EXPECT_TRUE(e["latency_ns"].contains("p50"));
    EXPECT_TRUE(e["latency_ns"].contains("p99"));
    EXPECT_EQ(e["status"], "ok");
    EXPECT_EQ(e["commits"], 6);
    EXPECT_EQ(e["verified_rows"], (6 + 1) * e["rows_per_commit"].get<int>());
    EXPECT_TRUE(e["predicted_commit_ns"].is_number()) << "the correlation probes ran";
  }
  EXPECT_EQ(rows[0]["journal_mode"], "DELETE");
  EXPECT_EQ(rows[0]["synchronous"], "FULL");
  EXPECT_DOUBLE_EQ(rows[0]["speedup_vs_delete_full"].get<double>(), 1.0);
  // Nothing left behind in the target.
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

// Under a preloaded library that turns fsync into a no-op (eatmydata, from Debian), the risk
// column no longer says "nothing lost": it says durability is not provided and names the finding.
TEST(SqliteCliTest, ANoOpSyncPreloadChangesTheRiskColumn) {
  const std::string lib = "/usr/lib/x86_64-linux-gnu/libeatmydata.so";
  if (!std::filesystem::exists(lib))
    GTEST_SKIP() << "eatmydata is not installed (apt-get install eatmydata)";
  testing_support::TempDir dir;
  std::string args =
      " run " + dir.path() +
      " --budget 2s --primitives none,fdatasync --journal-modes wal --synchronous full"
      " --commits 20 --repetitions 1";
  testing_support::CliRun plain = RunShell(std::string(DURPROBE_BINARY) + args + " --json -");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  nlohmann::json p = nlohmann::json::parse(plain.out);
  EXPECT_NE(p["targets"][0]["sqlite"][0]["risk"]["level"], "not_durable") << plain.out;

  testing_support::CliRun eaten =
      RunShell("LD_PRELOAD=" + lib + " " + DURPROBE_BINARY + args + " --json -");
  ASSERT_EQ(eaten.exit_code, 0) << eaten.err;
  nlohmann::json e = nlohmann::json::parse(eaten.out);
  const nlohmann::json& risk = e["targets"][0]["sqlite"][0]["risk"];
  EXPECT_EQ(risk["level"], "not_durable") << risk.dump();
  EXPECT_EQ(risk["documented_level"], "none");
  EXPECT_EQ(risk["findings"][0], "ld_preload_eatmydata") << risk.dump();

  testing_support::CliRun table = RunShell("LD_PRELOAD=" + lib + " " + DURPROBE_BINARY + args);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("durability not provided here (ld_preload_eatmydata"), std::string::npos)
      << table.out;
  EXPECT_EQ(table.out.find("nothing lost"), std::string::npos) << table.out;
}

}  // namespace
}  // namespace durprobe
