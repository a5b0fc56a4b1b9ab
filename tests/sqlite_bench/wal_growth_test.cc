// WAL growth under a long reader: the file grows while the reader holds its snapshot, PASSIVE
// checkpoints cannot copy past it, and TRUNCATE empties the WAL once the reader is gone.
#include <gtest/gtest.h>

#include "platform/platform.h"
#include "sqlite_bench/workloads.h"
#include "tests/test_dirs.h"

namespace durprobe::sqlite_bench {
namespace {

TEST(WalGrowthTest, ReaderSnapshotBlocksResetAndTruncateRecovers) {
  testing_support::TempDir dir;
  WorkloadOptions o;
  o.budget_ns = 60'000'000'000;  // never the limit here: the rounds are
  o.wal_rounds = 6;
  o.wal_commits_per_round = 20;
  o.wal_rows_per_commit = 20;
  WalGrowthResult r = RunWalGrowthWorkload(platform::Default(), dir.path(), o);
  ASSERT_EQ(r.outcome, probes::Outcome::kOk) << r.reason;
  ASSERT_EQ(r.series.size(), 6u);
  ASSERT_EQ(r.checkpoints.size(), 6u);
  EXPECT_TRUE(r.reader_snapshot_stable);
  EXPECT_EQ(r.reader_rows, 20u * 20u);  // the first round, committed before the reader began
  EXPECT_EQ(r.commits, 6u * 20u);
  EXPECT_EQ(r.verified_rows, 7u * 20u * 20u);
  for (std::size_t i = 1; i < r.series.size(); ++i) {
    EXPECT_GT(r.series[i].wal_bytes, r.series[i - 1].wal_bytes) << "sample " << i;
    EXPECT_GT(r.series[i].passive.log, r.series[i - 1].passive.log) << "sample " << i;
  }
  int snapshot_frames = r.checkpoints.front().checkpointed;
  for (const CheckpointAnswer& c : r.checkpoints) {
    EXPECT_LT(c.checkpointed, c.log) << "PASSIVE copied past the reader's snapshot";
    EXPECT_EQ(c.checkpointed, snapshot_frames);
  }
  EXPECT_EQ(r.max_wal_bytes, r.series.back().wal_bytes);
  // Reader gone: PASSIVE copies every frame but the file keeps its size; TRUNCATE empties it.
  EXPECT_EQ(r.passive_after_reader.checkpointed, r.passive_after_reader.log);
  EXPECT_EQ(r.wal_bytes_after_passive, r.max_wal_bytes);
  EXPECT_EQ(r.truncate.busy, 0);
  EXPECT_EQ(r.truncate.log, 0);
  EXPECT_EQ(r.wal_bytes_after_truncate, 0u);
}

}  // namespace
}  // namespace durprobe::sqlite_bench
