// `durprobe sqlite --workloads` end to end: name validation, the JSON keys of every workload's
// entries, the matrix skipped unless "commits" is named, nothing left in the target.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::ExpectSqliteUsageError;
using testing_support::RunShell;

TEST(SqliteWorkloadsCliTest, UnknownWorkloadOrShareIsOneLineExitTwo) {
  ExpectSqliteUsageError("--workloads read,bogus .",
                         "'bogus' is not one of read, connect, locks, concurrency, wal_growth, "
                         "commits, all (the valid workload names)");
  ExpectSqliteUsageError("--workloads locks --write-share 3/2 .", "'3/2' is not a share");
  ExpectSqliteUsageError("--workloads locks --threads 0 .", "--threads");
}

TEST(SqliteWorkloadsCliTest, AllWorkloadsCarryTheirJsonKeys) {
  std::string dir = testing_support::MakeTempDir("sqlite-workloads-cli");
  // Upper case on purpose: names are case-insensitive.
  testing_support::CliRun r =
      RunShell(std::string(DURPROBE_BINARY) + " sqlite " + dir +
               " --workloads ALL --threads 3 --processes 2 --budget 3s --json -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  const nlohmann::json& target = doc["targets"][0];
  EXPECT_FALSE(target.contains("sqlite")) << "--workloads alone skips the commit matrix";
  EXPECT_TRUE(target["probes"].empty());
  const std::map<std::string, std::vector<const char*>> keys = {
      {"read", {"database", "queries_per_sec", "latency_ns", "cache_size", "mmap_size", "pragmas"}},
      {"connect", {"mode", "us_per_op"}},
      {"locks", {"journal_mode", "case", "outcome", "via"}},
      {"concurrency", {"settings", "ops_per_sec", "busy_errors", "write_latency_ns"}},
      {"wal_growth", {"max_wal_bytes", "wal_bytes_after_truncate", "checkpoints", "series"}},
  };
  std::map<std::string, int> seen;
  for (const nlohmann::json& e : target["sqlite_workloads"]) {
    std::string w = e["workload"];
    ASSERT_TRUE(keys.count(w)) << w;
    ++seen[w];
    if (e["status"] != "ok") {
      EXPECT_EQ(w + "/" + e.value("variant", ""), "read/cold") << e.dump();
      continue;
    }
    for (const char* key : keys.at(w)) EXPECT_TRUE(e.contains(key)) << w << " lacks " << key;
    if (w == "read" || w == "concurrency") {
      const nlohmann::json& lat = e[w == "read" ? "latency_ns" : "write_latency_ns"];
      EXPECT_TRUE(lat.contains("p50") && lat.contains("p99")) << e.dump();
    }
    if (w == "concurrency") {
      EXPECT_TRUE(e.contains(e["via"] == "threads" ? "threads" : "processes"));
    }
    if (w == "wal_growth") {
      for (const nlohmann::json& c : e["checkpoints"]) {
        EXPECT_TRUE(c.contains("busy") && c.contains("log") && c.contains("checkpointed"));
      }
      EXPECT_EQ(e["wal_bytes_after_truncate"], 0);
    }
  }
  // Every entry each workload makes, unless the budget's deadline cut some: on this disk's slow
  // state (syncs of milliseconds) 3 s do not reach the last workloads. What was cut is listed as
  // unfinished, by the budget, under the workload's name; nothing goes missing silently.
  std::map<std::string, int> cut;
  for (const nlohmann::json& u : target.value("unfinished", nlohmann::json::array())) {
    EXPECT_EQ(u["kind"], "workload") << u.dump();
    EXPECT_EQ(u["reason"], "budget") << u.dump();
    std::string label = u["label"];
    ++cut[label.substr(0, label.find(':'))];
  }
  const std::map<std::string, int> expected = {
      {"read", 6}, {"connect", 2}, {"locks", 8}, {"concurrency", 4}, {"wal_growth", 1}};
  for (const auto& [w, n] : expected) {
    if (cut[w] == 0) {
      EXPECT_EQ(seen[w], n) << w;
    } else {
      EXPECT_LT(seen[w], n) << w << " was cut, yet has all its entries";
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

TEST(SqliteWorkloadsCliTest, CommitsNameRunsTheMatrixBesideAWorkload) {
  std::string dir = testing_support::MakeTempDir("sqlite-workloads-commits");
  testing_support::CliRun r =
      RunShell(std::string(DURPROBE_BINARY) + " sqlite " + dir +
               " --workloads locks,commits --journal-modes wal --synchronous normal --commits 3"
               " --repetitions 1 --warmup 1 --no-probes --budget 2s");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("SQLite commits"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("SQLite locks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("WAL      reader_vs_commit  ok"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace durprobe
