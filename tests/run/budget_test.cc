#include "run/budget.h"

#include <gtest/gtest.h>

#include "probes/runner.h"

namespace durprobe::run {
namespace {

TEST(BudgetTest, RunSplitsEachPathsShareInHalves) {
  RunSplit s = SplitRun(60'000, 2);
  EXPECT_EQ(s.probe_ns, 15'000u);
  EXPECT_EQ(s.sqlite_ns, 15'000u);
}

TEST(BudgetTest, PerPathIsTheTotalOverThePaths) {
  EXPECT_EQ(PerPath(30'000, 3), 10'000u);
  EXPECT_EQ(PerPath(30'000, 0), 30'000u);
}

TEST(BudgetTest, SqliteGivesWorkloadsHalfWhenTheMatrixRunsToo) {
  SqliteSplit s = SplitSqlite(20'000, 1, /*matrix=*/true, /*probes=*/true, /*workloads=*/true);
  EXPECT_EQ(s.workload_ns, 10'000u);
  EXPECT_EQ(s.probe_ns, 1'500u);  // 15% of the matrix half
  EXPECT_EQ(s.matrix_ns, 8'500u);
  EXPECT_EQ(s.workload_ns + s.probe_ns + s.matrix_ns, 20'000u);
}

TEST(BudgetTest, SqliteWorkloadsAloneTakeEverything) {
  SqliteSplit s = SplitSqlite(20'000, 2, /*matrix=*/false, /*probes=*/false, /*workloads=*/true);
  EXPECT_EQ(s.workload_ns, 10'000u);
  EXPECT_EQ(s.matrix_ns, 0u);
  EXPECT_EQ(s.probe_ns, 0u);
}

TEST(BudgetTest, SqliteWithoutProbesGivesTheMatrixAll) {
  SqliteSplit s = SplitSqlite(20'000, 1, true, /*probes=*/false, false);
  EXPECT_EQ(s.matrix_ns, 20'000u);
  EXPECT_EQ(s.probe_ns, 0u);
}

TEST(BudgetTest, CompareSlicesCountEveryProbeOpPathAndRound) {
  CompareSplit s = SplitCompare(60'000, 2, /*probes=*/5, /*ops=*/6, /*rounds=*/3, /*sqlite=*/true);
  EXPECT_EQ(s.probe_ns, 30'000u);
  EXPECT_EQ(s.sqlite_ns, 15'000u);
  EXPECT_EQ(s.slices, 22u);  // 60 us is too short for a second round
  CompareSplit probes_only = SplitCompare(60'000, 2, 5, 6, 3, /*sqlite=*/false);
  EXPECT_EQ(probes_only.probe_ns, 60'000u);
  EXPECT_EQ(probes_only.sqlite_ns, 0u);
  EXPECT_EQ(s.rounds, 1);
}

TEST(BudgetTest, CompareKeepsOnlyTheRoundsWhoseSlicesReachTheFloor) {
  // 5 s of probes; 12 probes and ops on 2 paths are 24 slices a round: 3 x 24 x 50 ms = 3.6 s.
  CompareSplit quick = SplitCompare(10'000'000'000, 2, 6, 6, 3, /*sqlite=*/true);
  EXPECT_EQ(quick.rounds, 3);
  EXPECT_EQ(quick.slices, 72u);
  // 16 probes and ops: 32 slices a round; 3 rounds would be 4.8 s, 4 would not fit, and with 20
  // probes and ops 3 x 40 x 50 ms = 6 s does not: 2 rounds.
  CompareSplit two_rounds = SplitCompare(10'000'000'000, 2, 14, 6, 3, /*sqlite=*/true);
  EXPECT_EQ(two_rounds.rounds, 2);
  EXPECT_EQ(two_rounds.slices, 80u);
  CompareSplit roomy = SplitCompare(60'000'000'000, 2, 14, 6, 3, /*sqlite=*/true);
  EXPECT_EQ(roomy.rounds, 3);
}

TEST(BudgetTest, ConcurrencyCellsShareTheBudgetAndDropTheLargestCountsWhenShort) {
  // 5 counts x 3 modes + the queue-depth run = 16 cells of 1 s.
  ConcurrencySplit all = SplitConcurrency(16'000'000'000, {16, 1, 2, 4, 8, 4}, 3);
  EXPECT_EQ(all.writers, (std::vector<std::uint32_t>{1, 2, 4, 8, 16}));
  EXPECT_EQ(all.cell_ns, 1'000'000'000u);
  // 2.5 s: 16, 8 and 4 writers go (three counts x three modes + 1 = 10 cells would be 250 ms).
  ConcurrencySplit capped = SplitConcurrency(2'500'000'000, {1, 2, 4, 8, 16}, 3);
  EXPECT_EQ(capped.writers, (std::vector<std::uint32_t>{1, 2}));
  // What the cap left out is kept, so the run lists those cells as not run (issue 32 item 16).
  EXPECT_EQ(capped.dropped, (std::vector<std::uint32_t>{4, 8, 16}));
  EXPECT_TRUE(all.dropped.empty());
  EXPECT_GE(capped.cell_ns, kMinConcurrencyCellNs);
  // Never below one writer, and never a cell shorter than the minimum.
  ConcurrencySplit tiny = SplitConcurrency(1'000'000, {1, 8}, 1);
  EXPECT_EQ(tiny.writers, (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(tiny.cell_ns, kMinConcurrencyCellNs);
}

}  // namespace
}  // namespace durprobe::run
