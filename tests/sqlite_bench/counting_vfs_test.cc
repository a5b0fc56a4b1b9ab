#include "sqlite_bench/counting_vfs.h"

#include <gtest/gtest.h>

#include <memory>

#include "platform/scratch.h"
#include "sqlite_bench/commit_bench.h"
#include "sqlite_bench/sqlite_db.h"

namespace durprobe::sqlite_bench {
namespace {

class CountingVfsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto scratch = platform::ScratchDir::Create(platform_, ::testing::TempDir());
    ASSERT_TRUE(scratch.ok()) << scratch.status().message();
    scratch_ = std::move(*scratch);
    auto vfs = CountingVfs::Register(platform_, "durprobe-test-counting");
    ASSERT_TRUE(vfs.ok()) << vfs.status().message();
    vfs_ = std::move(*vfs);
  }

  CommitResult Run(JournalMode journal, Synchronous sync, std::uint32_t rows = 1,
                   std::uint64_t commits = 10) {
    CommitOptions o;
    o.repetitions = 1;
    o.warmup_commits = 2;
    o.fixed_commits = commits;
    CommitConfig c{journal, sync, rows, StatementMode::kReused, 100, std::nullopt};
    CommitResult r = RunCommitConfig(platform_, *vfs_, scratch_->work_path(), "t.db", c, o);
    EXPECT_EQ(r.outcome, probes::Outcome::kOk) << r.reason;
    EXPECT_EQ(r.commits, commits);
    return r;
  }

  platform::Platform& platform_ = platform::Default();
  std::unique_ptr<platform::ScratchDir> scratch_;
  std::unique_ptr<CountingVfs> vfs_;
};

TEST(ClassifyOpenFlagsTest, UsesTheKindSqliteDeclares) {
  EXPECT_EQ(ClassifyOpenFlags(SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_CREATE), FileKind::kDb);
  EXPECT_EQ(ClassifyOpenFlags(SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_CREATE), FileKind::kJournal);
  EXPECT_EQ(ClassifyOpenFlags(SQLITE_OPEN_WAL | SQLITE_OPEN_READWRITE), FileKind::kWal);
  EXPECT_EQ(ClassifyOpenFlags(SQLITE_OPEN_TEMP_JOURNAL), FileKind::kOther);
  EXPECT_EQ(ClassifyOpenFlags(SQLITE_OPEN_SUBJOURNAL), FileKind::kOther);
  EXPECT_EQ(NameOf(FileKind::kWal), "wal");
}

TEST_F(CountingVfsTest, RegistersUnderItsOwnNameAndLeavesTheDefaultAlone) {
  EXPECT_EQ(sqlite3_vfs_find("durprobe-test-counting") != nullptr, true);
  EXPECT_STRNE(sqlite3_vfs_find(nullptr)->zName, "durprobe-test-counting");
  EXPECT_FALSE(CountingVfs::Register(platform_, "durprobe-test-counting").ok());
}

TEST_F(CountingVfsTest, WalFullSyncsTheWalOncePerSingleRowCommit) {
  CommitResult r = Run(JournalMode::kWal, Synchronous::kFull);
  EXPECT_EQ(r.commit_counts.of(FileKind::kWal).syncs, 10u);
  EXPECT_EQ(r.commit_counts.of(FileKind::kDb).syncs, 0u);
  EXPECT_EQ(r.commit_counts.of(FileKind::kJournal).syncs, 0u);
  EXPECT_EQ(r.commit_counts.dir_syncs(), 0u);  // the WAL's directory sync happened in warm-up
  EXPECT_EQ(r.checkpoints.count, 0u);
  EXPECT_GT(r.commit_counts.of(FileKind::kWal).writes, 0u);
}

TEST_F(CountingVfsTest, WalNormalDoesNotSyncOnCommit) {
  CommitResult r = Run(JournalMode::kWal, Synchronous::kNormal);
  EXPECT_EQ(r.commit_counts.sync_calls(), 0u);
}

TEST_F(CountingVfsTest, DeleteOffIssuesNoSyncs) {
  CommitResult r = Run(JournalMode::kDelete, Synchronous::kOff);
  EXPECT_EQ(r.AllCounts().sync_calls(), 0u);
  EXPECT_EQ(r.commit_counts.of(FileKind::kJournal).deletes,
            10u);  // the journal still comes and goes
}

TEST_F(CountingVfsTest, DeleteFullSyncsJournalTwiceDirectoryOnceAndDbOnce) {
  CommitResult r = Run(JournalMode::kDelete, Synchronous::kFull);
  EXPECT_EQ(r.commit_counts.of(FileKind::kJournal).syncs, 20u);
  EXPECT_EQ(r.commit_counts.of(FileKind::kJournal).dir_syncs, r.dir_syncs_inferred ? 10u : 0u);
  EXPECT_EQ(r.commit_counts.of(FileKind::kDb).syncs, 10u);
  EXPECT_EQ(r.commit_counts.of(FileKind::kJournal).deletes, 10u);
  EXPECT_EQ(r.commit_counts.of(FileKind::kJournal).deletes_dirsync, 0u);
  // synchronous=FULL means more syncs, not SQLITE_SYNC_FULL: that flag comes with PRAGMA fullfsync.
  EXPECT_EQ(r.commit_counts.of(FileKind::kJournal).sync_normal, 20u);
  EXPECT_EQ(r.commit_counts.of(FileKind::kJournal).sync_full, 0u);
}

TEST_F(CountingVfsTest, DeleteExtraAlsoSyncsTheDirectoryAfterDeletingTheJournal) {
  CommitResult r = Run(JournalMode::kDelete, Synchronous::kExtra);
  EXPECT_EQ(r.commit_counts.of(FileKind::kJournal).deletes_dirsync, 10u);
  if (r.dir_syncs_inferred) {
    EXPECT_EQ(r.commit_counts.dir_syncs(), 20u);
  }
}

TEST_F(CountingVfsTest, BatchedRowsShareOneCommitsSyncs) {
  CommitResult one = Run(JournalMode::kWal, Synchronous::kFull, 1, 5);
  CommitResult hundred = Run(JournalMode::kWal, Synchronous::kFull, 100, 5);
  EXPECT_EQ(one.commit_counts.sync_calls(), hundred.commit_counts.sync_calls());
  EXPECT_EQ(hundred.rows, 500u);
  EXPECT_EQ(hundred.verified_rows, 700u);  // two warm-up commits of 100 rows, then 5 timed
}

TEST_F(CountingVfsTest, PassesFlagsThroughSoTheDatabaseReadsBackOutsideTheShim) {
  CommitResult r = Run(JournalMode::kWal, Synchronous::kFull);
  EXPECT_EQ(r.verified_rows, 12u);
  EXPECT_EQ(
      r.verify_counts.of(FileKind::kDb).reads > 0 || r.verify_counts.of(FileKind::kWal).reads > 0,
      true);
}

}  // namespace
}  // namespace durprobe::sqlite_bench
