// crashsim end to end without the binary: determinism for a seed, the counts' invariants, and the
// exhaustive model check on a tiny workload (every subset of the unsynced entries at every call).
#include "sqlite_bench/crashsim.h"

#include <gtest/gtest.h>

#include "tests/test_dirs.h"

namespace durprobe::sqlite_bench {
namespace {

using testing_support::TempDir;

CrashsimPlan SmallPlan(std::uint64_t seed) {
  CrashsimPlan plan;
  plan.configs = {{JournalMode::kDelete, Synchronous::kFull, 1},
                  {JournalMode::kWal, Synchronous::kNormal, 1},
                  {JournalMode::kDelete, Synchronous::kOff, 3}};
  plan.options.trials = 25;
  plan.options.seed = seed;
  plan.options.workload.commits = 5;
  return plan;
}

TEST(CrashsimTest, DefaultConfigurationsAreFourJournalModesByFourLevels) {
  std::vector<CrashsimConfig> configs = DefaultCrashsimConfigs({1, 10});
  ASSERT_EQ(configs.size(), 32u);
  EXPECT_EQ(configs.front().journal, JournalMode::kDelete);
  EXPECT_EQ(configs.front().sync, Synchronous::kOff);
  EXPECT_EQ(configs.back().journal, JournalMode::kWal);
  EXPECT_EQ(configs.back().sync, Synchronous::kExtra);
  EXPECT_EQ(configs.back().rows_per_commit, 10u);
}

TEST(CrashsimTest, TheSameSeedGivesTheSameResults) {
  TempDir dir;
  std::vector<CrashsimResult> a = RunCrashsim(platform::Default(), dir.path(), SmallPlan(7));
  std::vector<CrashsimResult> b = RunCrashsim(platform::Default(), dir.path(), SmallPlan(7));
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), 3u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].outcome, probes::Outcome::kOk) << a[i].reason;
    EXPECT_EQ(a[i].trials, 25u);
    EXPECT_EQ(a[i].crash_states, b[i].crash_states);
    EXPECT_EQ(a[i].crash_points, b[i].crash_points);
    EXPECT_EQ(a[i].corrupt, b[i].corrupt);
    EXPECT_EQ(a[i].trials_with_loss, b[i].trials_with_loss);
    EXPECT_EQ(a[i].lost_commits_max, b[i].lost_commits_max);
    EXPECT_DOUBLE_EQ(a[i].lost_commits_mean, b[i].lost_commits_mean);
    EXPECT_EQ(a[i].seed, 7u);
    EXPECT_EQ(a[i].device, "none");
  }
}

TEST(CrashsimTest, CountsAreConsistent) {
  TempDir dir;
  for (const CrashsimResult& r : RunCrashsim(platform::Default(), dir.path(), SmallPlan(3))) {
    EXPECT_GT(r.crash_points, 1u);
    EXPECT_GE(r.crash_states, 1u);
    EXPECT_LE(r.crash_states, r.trials);
    EXPECT_LE(r.corrupt, r.trials);
    EXPECT_LE(r.trials_with_loss + r.corrupt, r.trials);
    EXPECT_LE(r.lost_commits_max, r.commits);
    EXPECT_LE(r.lost_commits_mean, double(r.lost_commits_max));
    EXPECT_EQ(r.trials_with_loss == 0, r.lost_commits_max == 0);
  }
  // Nothing left in the scratch directory.
  Result<std::vector<std::string>> left = platform::Default().ListDirectory(dir.path());
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(left->empty());
}

// docs/durability.md: on a device that tears sectors, WAL + FULL loses a synced commit only
// because SQLite is told the storage has powersafe overwrite; told otherwise, it pads the frames.
// The simulated device keeps powersafe overwrite exactly when SQLite is told it does: a torn
// write then scrambles only the bytes it wrote. With psow=0 it scrambles whole sectors, and
// SQLite pads each synced commit to a sector. WAL/FULL keeps every commit both ways.
TEST(CrashsimTest, WalFullOnTornSectorsKeepsEveryCommitWhenTheDeviceIsWhatSqliteIsTold) {
  TempDir dir;
  CrashsimPlan plan;
  plan.configs = {{JournalMode::kWal, Synchronous::kFull, 1}};
  plan.options.trials = 60;
  plan.options.workload.commits = 6;
  std::vector<CrashsimResult> psow = RunCrashsim(platform::Default(), dir.path(), plan);
  plan.options.powersafe_overwrite = false;
  std::vector<CrashsimResult> no_psow = RunCrashsim(platform::Default(), dir.path(), plan);
  ASSERT_EQ(psow.size(), 1u);
  ASSERT_EQ(no_psow.size(), 1u);
  EXPECT_EQ(psow[0].trials, 60u);
  EXPECT_EQ(psow[0].trials_with_loss, 0u);
  EXPECT_EQ(psow[0].corrupt, 0u) << psow[0].corrupt_example;
  EXPECT_EQ(no_psow[0].trials_with_loss, 0u);
  EXPECT_EQ(no_psow[0].corrupt, 0u) << no_psow[0].corrupt_example;
  EXPECT_EQ(no_psow[0].device, "none; SQLite told psow=0");
}

// Every crash point of a two-commit workload, every subset of what was unsynced there.
ModelCheckResult Exhaustive(JournalMode journal, Synchronous sync) {
  TempDir dir;
  CrashWorkloadOptions workload;
  workload.commits = 2;
  workload.payload_bytes = 50;
  return ModelCheck(platform::Default(), dir.path(), {journal, sync, 1}, workload, 10);
}

TEST(CrashsimTest, ModelCheckDeleteExtraNeverCorruptsNorLoses) {
  ModelCheckResult m = Exhaustive(JournalMode::kDelete, Synchronous::kExtra);
  ASSERT_TRUE(m.status.ok()) << m.status.message();
  EXPECT_EQ(m.skipped_points, 0u);
  EXPECT_GT(m.images, m.crash_points);
  EXPECT_EQ(m.corrupt, 0u) << m.corrupt_example;
  EXPECT_EQ(m.images_with_loss, 0u);
}

TEST(CrashsimTest, ModelCheckDeleteFullCanLoseTheLastCommitToAnUnsyncedJournalUnlink) {
  ModelCheckResult m = Exhaustive(JournalMode::kDelete, Synchronous::kFull);
  ASSERT_TRUE(m.status.ok()) << m.status.message();
  EXPECT_EQ(m.skipped_points, 0u);
  EXPECT_EQ(m.corrupt, 0u) << m.corrupt_example;
  EXPECT_GT(m.images_with_loss, 0u);
  EXPECT_EQ(m.lost_commits_max, 1u);
}

TEST(CrashsimTest, ModelCheckWalFullNeverCorruptsNorLoses) {
  ModelCheckResult m = Exhaustive(JournalMode::kWal, Synchronous::kFull);
  ASSERT_TRUE(m.status.ok()) << m.status.message();
  EXPECT_EQ(m.skipped_points, 0u);
  EXPECT_EQ(m.corrupt, 0u) << m.corrupt_example;
  EXPECT_EQ(m.images_with_loss, 0u);
}

TEST(CrashsimTest, ModelCheckWalNormalLosesButNeverCorrupts) {
  ModelCheckResult m = Exhaustive(JournalMode::kWal, Synchronous::kNormal);
  ASSERT_TRUE(m.status.ok()) << m.status.message();
  EXPECT_EQ(m.corrupt, 0u) << m.corrupt_example;
  EXPECT_GT(m.images_with_loss, 0u);
}

}  // namespace
}  // namespace durprobe::sqlite_bench
