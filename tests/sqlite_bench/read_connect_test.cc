// The read and connect workloads on a small table: every variant runs and checks every value it
// reads, the pragmas it reports are the ones SQLite answered, and the table verifies.
#include <gtest/gtest.h>

#include <map>

#include "platform/platform.h"
#include "sqlite_bench/kv_table.h"
#include "sqlite_bench/workloads.h"
#include "tests/test_dirs.h"

namespace durprobe::sqlite_bench {
namespace {

WorkloadOptions Small() {
  WorkloadOptions o;
  o.budget_ns = 600'000'000;
  o.kv_rows = 3000;
  o.max_queries = 1500;
  return o;
}

TEST(KvTableTest, VerifyCatchesAnAlteredValue) {
  auto db = Db::Open(":memory:", nullptr);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(PopulateKv(**db, 100).ok());
  Result<std::uint64_t> rows = VerifyKv(**db, 100);
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  EXPECT_EQ(*rows, 100u);
  ASSERT_TRUE((*db)->Exec("UPDATE kv SET v = 'x' WHERE k = 'k7'").ok());
  EXPECT_FALSE(VerifyKv(**db, 100).ok());
}

TEST(ReadWorkloadTest, VariantsRunWithTheirPragmas) {
  testing_support::TempDir dir;
  std::vector<ReadResult> results = RunReadWorkload(platform::Default(), dir.path(), Small());
  ASSERT_EQ(results.size(), 6u);
  std::map<std::string, const ReadResult*> by;
  for (const ReadResult& r : results) by[r.variant] = &r;
  for (const char* v : {"defaults", "cache_64mb", "mmap_256mb", "cache_mmap", "memory"}) {
    ASSERT_TRUE(by.count(v)) << v;
    const ReadResult& r = *by[v];
    ASSERT_EQ(r.outcome, probes::Outcome::kOk) << v << ": " << r.reason;
    EXPECT_EQ(r.rows, 3000u);
    EXPECT_GT(r.queries, 0u);
    EXPECT_LE(r.queries, 1500u);
    EXPECT_EQ(r.latency.count, r.queries);
  }
  EXPECT_EQ(by["memory"]->database, "memory");
  EXPECT_EQ(by["defaults"]->database, "file");
  EXPECT_EQ(by["defaults"]->journal_mode, "wal");
  EXPECT_EQ(by["cache_64mb"]->cache_size, -64000);
  EXPECT_EQ(by["mmap_256mb"]->mmap_size, 268435456);
  EXPECT_EQ(by["cache_mmap"]->cache_size, -64000);
  EXPECT_EQ(by["cache_mmap"]->mmap_size, 268435456);
  // A cold run either ran (the page cache could be dropped) or says plainly why not.
  const ReadResult& cold = *by["cold"];
  EXPECT_TRUE(cold.cold);
  if (cold.outcome == probes::Outcome::kOk) {
    EXPECT_FALSE(cold.cold_note.empty());
  } else {
    EXPECT_EQ(cold.outcome, probes::Outcome::kUnsupported) << cold.reason;
    EXPECT_NE(cold.reason.find("cannot drop the page cache"), std::string::npos);
  }
}

TEST(ConnectWorkloadTest, ReopenAndReuseBothRun) {
  testing_support::TempDir dir;
  std::vector<ConnectResult> results = RunConnectWorkload(platform::Default(), dir.path(), Small());
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].mode, "reopen");
  EXPECT_EQ(results[1].mode, "reuse");
  for (const ConnectResult& r : results) {
    ASSERT_EQ(r.outcome, probes::Outcome::kOk) << r.mode << ": " << r.reason;
    EXPECT_GE(r.ops, 100u);
    EXPECT_GT(r.us_per_op, 0.0);
  }
}

}  // namespace
}  // namespace durprobe::sqlite_bench
