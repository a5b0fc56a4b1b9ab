// The workload tables' text, so a format change is a decision: the four lock cases' lines with
// a threads and a processes column, the WAL growth series and its recovery line.
#include "render/console/sqlite_workloads_console.h"

#include <gtest/gtest.h>

#include <sstream>

#include "codec/sqlite_workloads_json.h"

namespace durprobe::render::console {
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
  for (const char* line :
       {"journal  case              threads                  processes\n",
        "DELETE   writer_vs_writer  busy at BEGIN IMMEDIATE  busy at BEGIN IMMEDIATE\n",
        "DELETE   reader_vs_commit  busy at COMMIT           busy at COMMIT\n",
        "WAL      writer_vs_writer  busy at BEGIN IMMEDIATE  busy at BEGIN IMMEDIATE\n",
        "WAL      reader_vs_commit  ok                       ok\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
  }
  EXPECT_NE(text.find("\"database is locked\""), std::string::npos);
}

TEST(SqliteWorkloadsConsoleTest, WalGrowthShowsSeriesAndRecovery) {
  std::ostringstream out;
  PrintSqliteWorkloads(Sample(), out);
  std::string text = out.str();
  EXPECT_NE(
      text.find("      t  commits  WAL size  wal_checkpoint(PASSIVE) busy, log, checkpointed\n"
                "2.50 ms       40   841 KiB  0, 209, 104\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("PASSIVE 0, 209, 209 -> WAL still 841 KiB; TRUNCATE 0, 0, 0 -> WAL 0 B"),
            std::string::npos)
      << text;
}

TEST(SqliteWorkloadsConsoleTest, ReadConnectAndConcurrencyText) {
  WorkloadResults w;
  ReadResult file;
  file.variant = "defaults";
  file.database = "file";
  file.journal_mode = "wal";
  file.cache_size = -2000;
  file.rows = 10000;
  file.queries = 20000;
  file.queries_per_sec = 350000;
  file.latency = {.count = 20000, .p50 = 2600, .p99 = 5100};
  ReadResult memory = file;
  memory.variant = "memory";
  memory.database = "memory";
  memory.journal_mode = "memory";
  memory.queries = 60;  // too few for a p99
  memory.queries_per_sec = 500000;
  memory.latency = {.count = 60, .p50 = 1900, .p99 = 4000};
  w.read = {file, memory};
  ConnectResult reopen;
  reopen.mode = "reopen";
  reopen.ops = 500;
  reopen.us_per_op = 121.34;
  reopen.latency = {.count = 500, .p50 = 118'000, .p99 = 190'000};
  ConnectResult reuse = reopen;
  reuse.mode = "reuse";
  reuse.us_per_op = 2.5;
  reuse.latency = {.count = 500, .p50 = 2'400, .p99 = 4'000};
  w.connect = {reopen, reuse};
  ConcurrencyResult c;
  c.settings = "default";
  c.via = "threads";
  c.workers = 4;
  c.write_share = 0.2;
  c.journal_mode = "DELETE";
  c.synchronous = "FULL";
  c.ops = 80;
  c.reads = 60;
  c.writes = 12;
  c.busy_errors = 8;
  c.busy_reads = 2;
  c.busy_writes = 6;
  c.ops_per_sec = 1234;
  c.write_latency = {.count = 12, .p50 = 1'800'000, .p99 = 4'000'000};
  c.read_latency = {.count = 60, .p50 = 30'000, .p99 = 90'000};
  w.concurrency = {c};
  std::ostringstream out;
  PrintSqliteWorkloads(w, out);
  EXPECT_EQ(
      out.str(),
      "\n"
      "SQLite reads: primary-key lookups on 10,000 rows, one variant a row:\n"
      "variant   database  journal  cache_size  mmap_size  queries  queries/s      p50      p99\n"
      "defaults  file      wal           -2000          0    20000    350,000  2.60 us  5.10 us\n"
      "memory    memory    memory        -2000          0       60    500,000  1.90 us        -\n"
      "  p90, p99, p99.9 \"-\": fewer operations than that percentile needs (10, 100, 1,000)\n"
      "  the file database answers at 70% of :memory:'s rate: reads come from SQLite's and the "
      "OS's page caches, not the device\n"
      "  cache_size < 0 is KiB (-2000: SQLite's 2 MB default); latency is one lookup (bind, step, "
      "read the value), clock reads included\n"
      "\n"
      "SQLite connection cost: open + one lookup + close vs a kept connection:\n"
      "mode    ops     mean      p50      p99\n"
      "reopen  500   121 us   118 us   190 us\n"
      "reuse   500  2.50 us  2.40 us  4.00 us\n"
      "  opening per request adds 119 us (48.5x a lookup on a kept connection); another connection "
      "kept the WAL database open meanwhile\n"
      "\n"
      "SQLite concurrent mixed load: 20% writes (BEGIN IMMEDIATE + INSERT), the rest SELECT "
      "COUNT(*):\n"
      "settings  via      workers  ops  ok  ok ops/s  busy (r+w)  write p50  write p99  read p50\n"
      "default   threads        4   80  72     1,234     8 (2+6)    1.80 ms          -   30.0 us\n"
      "  p90, p99, p99.9 \"-\": fewer operations than that percentile needs (10, 100, 1,000)\n"
      "  default: DELETE / FULL / busy_timeout 0; wal_normal_busy_timeout: WAL / NORMAL / "
      "busy_timeout 0 ms. Busy operations fail and are not retried;\n"
      "  the table holds exactly the committed writes afterwards (verified)\n");
}

TEST(SqliteWorkloadsJsonTest, EntriesAreKeyedByWorkload) {
  nlohmann::json j = codec::ToJson(Sample());
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
}  // namespace durprobe::render::console
