// The concurrent mixed load: every committed write is in the table afterwards, busy errors are
// counted, and WAL + busy_timeout leaves none. Outcomes only; the speed is not a test.
#include <gtest/gtest.h>

#include "platform/platform.h"
#include "sqlite_bench/concurrency_worker.h"
#include "sqlite_bench/workloads.h"
#include "tests/test_dirs.h"

namespace durprobe::sqlite_bench {
namespace {

TEST(ConcurrencyTest, WriteShareSpreadsWritesEvenly) {
  int writes = 0;
  for (std::uint64_t i = 0; i < 300; ++i) writes += IsWriteOp(i, 1.0 / 3.0);
  EXPECT_EQ(writes, 100);
  for (std::uint64_t i = 0; i < 10; ++i) {
    EXPECT_FALSE(IsWriteOp(i, 0.0));
    EXPECT_TRUE(IsWriteOp(i, 1.0));
  }
}

TEST(ConcurrencyTest, StatsSurviveTheTripThroughAPipeFrame) {
  WorkerStats s;
  s.counts.ops = 9;
  s.counts.busy_writes = 2;
  s.counts.checksum = 0xfeedu;
  s.write_latency.Record(1500);
  s.error = "boom";
  Result<WorkerStats> back = DecodeStats(EncodeStats(s));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->counts.ops, 9u);
  EXPECT_EQ(back->counts.busy_writes, 2u);
  EXPECT_EQ(back->counts.checksum, 0xfeedu);
  EXPECT_EQ(back->write_latency.count(), 1u);
  EXPECT_EQ(back->error, "boom");
  EXPECT_FALSE(DecodeStats("short").ok());
}

// WAL + busy_timeout: BEGIN IMMEDIATE waits for the writer ahead instead of failing, and WAL
// readers never wait for writers, so a busy error would need one lock holder to stall for the
// whole 5 s timeout. Rollback-journal defaults with busy_timeout 0 may or may not collide.
TEST(ConcurrencyTest, EveryCommittedWriteIsThereAndWalWithTimeoutHasNoBusyErrors) {
  testing_support::TempDir dir;
  WorkloadOptions o;
  o.budget_ns = 600'000'000'000;  // the planned operations end the runs, not the clock
  o.threads = 4;
  o.processes = 3;
  o.ops_per_worker = 30;
  std::vector<ConcurrencyResult> results =
      RunConcurrencyWorkload(platform::Default(), dir.path(), o);
  ASSERT_EQ(results.size(), 4u);
  for (const ConcurrencyResult& r : results) {
    SCOPED_TRACE(r.settings + " via " + r.via);
    ASSERT_EQ(r.outcome, probes::Outcome::kOk) << r.reason;
    EXPECT_FALSE(r.deadline_hit);
    EXPECT_EQ(r.workers, r.via == "threads" ? 4u : 3u);
    EXPECT_EQ(r.ops, r.workers * 30u);
    EXPECT_EQ(r.reads + r.writes + r.busy_errors, r.ops);
    EXPECT_EQ(r.busy_errors, r.busy_reads + r.busy_writes);
    EXPECT_EQ(r.verified_rows, r.writes);
    EXPECT_EQ(r.write_latency.count, r.writes);
    if (r.settings == "wal_normal_busy_timeout") {
      EXPECT_EQ(r.journal_mode, "WAL");
      EXPECT_EQ(r.busy_timeout_ms, 5000);
      EXPECT_EQ(r.busy_errors, 0u);
      EXPECT_EQ(r.writes, r.workers * 10u);
    } else {
      EXPECT_EQ(r.journal_mode, "DELETE");
      EXPECT_EQ(r.busy_timeout_ms, 0);
    }
    // Every planned operation ends as done or busy, never retried into a second try and never
    // lost: a third of each worker's 30 are writes.
    EXPECT_EQ(r.writes + r.busy_writes, r.workers * 10u);
    EXPECT_EQ(r.reads + r.busy_reads, r.workers * 20u);
  }
}

}  // namespace
}  // namespace durprobe::sqlite_bench
