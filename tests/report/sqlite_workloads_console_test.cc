// The workload tables' text, so a format change is a decision: seed 000's four lock lines with
// a threads and a processes column, the WAL growth series and its recovery line.
#include <gtest/gtest.h>

#include <sstream>

#include "report/sqlite_workloads_console.h"
#include "report/sqlite_workloads_json.h"

namespace durprobe::report {
namespace {

using namespace sqlite_bench;

LockResult Lock(const char* journal, const char* c, const char* via, const char* outcome,
                const char* at) {
  LockResult r;
  r.journal_mode = journal;
  r.lock_case = c;
  r.via = via;
  r.lock_outcome = outcome;
  r.busy_at = at;
  r.message = *at ? "database is locked" : "";
  return r;
}

WorkloadResults Sample() {
  WorkloadResults w;
  for (const char* via : {"threads", "processes"}) {
    w.locks.push_back(Lock("DELETE", "writer_vs_writer", via, "busy", "BEGIN IMMEDIATE"));
    w.locks.push_back(Lock("DELETE", "reader_vs_commit", via, "busy", "COMMIT"));
    w.locks.push_back(Lock("WAL", "writer_vs_writer", via, "busy", "BEGIN IMMEDIATE"));
    w.locks.push_back(Lock("WAL", "reader_vs_commit", via, "ok", ""));
  }
  WalGrowthResult g;
  g.wal_autocheckpoint = 1000;
  g.reader_rows = 800;
  g.reader_snapshot_stable = true;
  g.series.push_back({2.5, 40, 861112, {0, 209, 104}});
  g.checkpoints.push_back({0, 209, 104});
  g.max_wal_bytes = 861112;
  g.passive_after_reader = {0, 209, 209};
  g.wal_bytes_after_passive = 861112;
  g.verified_rows = 1600;
  w.wal_growth.push_back(g);
  return w;
}

TEST(SqliteWorkloadsConsoleTest, LockTableHasTheSeedsFourLines) {
  std::ostringstream out;
  PrintSqliteWorkloads(Sample(), out);
  std::string text = out.str();
  for (const char* line : {
           "DELETE   writer_vs_writer   busy at BEGIN IMMEDIATE    busy at BEGIN IMMEDIATE",
           "DELETE   reader_vs_commit   busy at COMMIT             busy at COMMIT",
           "WAL      writer_vs_writer   busy at BEGIN IMMEDIATE    busy at BEGIN IMMEDIATE",
           "WAL      reader_vs_commit   ok                         ok"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
  }
  EXPECT_NE(text.find("\"database is locked\""), std::string::npos);
}

TEST(SqliteWorkloadsConsoleTest, WalGrowthShowsSeriesAndRecovery) {
  std::ostringstream out;
  PrintSqliteWorkloads(Sample(), out);
  std::string text = out.str();
  EXPECT_NE(text.find("      40     841 KiB   0, 209, 104"), std::string::npos) << text;
  EXPECT_NE(text.find("PASSIVE 0, 209, 209 -> WAL still 841 KiB; TRUNCATE 0, 0, 0 -> WAL 0 B"),
            std::string::npos) << text;
}

TEST(SqliteWorkloadsJsonTest, EntriesAreKeyedByWorkload) {
  nlohmann::json j = ToJson(Sample());
  ASSERT_EQ(j.size(), 9u);
  EXPECT_EQ(j[0]["workload"], "locks");
  EXPECT_EQ(j[0]["case"], "writer_vs_writer");
  EXPECT_EQ(j[0]["outcome"], "busy");
  EXPECT_EQ(j[0]["busy_at"], "BEGIN IMMEDIATE");
  EXPECT_EQ(j[3]["outcome"], "ok");
  EXPECT_FALSE(j[3].contains("busy_at"));
  EXPECT_EQ(j[8]["workload"], "wal_growth");
  EXPECT_EQ(j[8]["checkpoints"][0]["checkpointed"], 104);
  EXPECT_EQ(j[8]["series"][0]["wal_bytes"], 861112);
}

}  // namespace
}  // namespace durprobe::report
