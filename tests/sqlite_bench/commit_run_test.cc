// The commit loop's timing (sqlite_bench/commit_run.cc): a commit that triggers the WAL
// autocheckpoint is timed without the checkpoint, which is timed and counted apart
// (docs/sqlite.md "Checkpoints"). No other test reached a checkpoint (issue 32 item 18): here
// the fake clock makes each checkpoint take a known, huge time, so a commit that kept it in its
// latency cannot hide.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/types.h>

#include <memory>

#include "platform/scratch.h"
#include "sqlite_bench/commit_bench.h"
#include "sqlite_bench/counting_vfs.h"
#include "tests/support/fault_platform.h"

namespace durprobe::sqlite_bench {
namespace {

// Each database page a checkpoint copies (the only writes to the database file in WAL mode once
// it exists) moves the fake clock on by this much: the checkpoint takes hours, a commit never.
constexpr std::uint64_t kCheckpointWriteNs = 1000ull * 1'000'000'000;

platform::FaultPlatform* g_clock = nullptr;
CountingVfs* g_vfs = nullptr;
sqlite3_syscall_ptr g_real_pwrite = nullptr;
sqlite3_syscall_ptr g_real_pwrite64 = nullptr;

using PwriteFn = ssize_t (*)(int, const void*, size_t, off_t);

ssize_t SlowCheckpointPwrite(int fd, const void* buf, size_t n, off_t off) {
  if (g_vfs && g_vfs->phase() == Phase::kCheckpoint) g_clock->AdvanceClock(kCheckpointWriteNs);
  return reinterpret_cast<PwriteFn>(g_real_pwrite)(fd, buf, n, off);
}

ssize_t SlowCheckpointPwrite64(int fd, const void* buf, size_t n, off_t off) {
  if (g_vfs && g_vfs->phase() == Phase::kCheckpoint) g_clock->AdvanceClock(kCheckpointWriteNs);
  return reinterpret_cast<PwriteFn>(g_real_pwrite64)(fd, buf, n, off);
}

class CommitRunCheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto scratch = platform::ScratchDir::Create(platform::Default(), ::testing::TempDir());
    ASSERT_TRUE(scratch.ok()) << scratch.status().message();
    scratch_ = std::move(*scratch);
    unix_ = sqlite3_vfs_find(nullptr);
    ASSERT_NE(unix_, nullptr);
    if (unix_->iVersion < 3 || unix_->xSetSystemCall == nullptr) {
      GTEST_SKIP() << "the default SQLite VFS lets no system call be replaced";
    }
    g_real_pwrite = unix_->xGetSystemCall(unix_, "pwrite");
    g_real_pwrite64 = unix_->xGetSystemCall(unix_, "pwrite64");
    if (g_real_pwrite == nullptr && g_real_pwrite64 == nullptr) {
      GTEST_SKIP() << "the default SQLite VFS has no pwrite to replace";
    }
    if (g_real_pwrite) {
      unix_->xSetSystemCall(unix_, "pwrite",
                            reinterpret_cast<sqlite3_syscall_ptr>(SlowCheckpointPwrite));
    }
    if (g_real_pwrite64) {
      unix_->xSetSystemCall(unix_, "pwrite64",
                            reinterpret_cast<sqlite3_syscall_ptr>(SlowCheckpointPwrite64));
    }
    fault_.UseFakeClock();
    fault_.AdvanceClockOnEachRead(1000);  // every reading 1 us after the previous one
    auto vfs = CountingVfs::Register(fault_, "durprobe-test-checkpoint-clock");
    ASSERT_TRUE(vfs.ok()) << vfs.status().message();
    vfs_ = std::move(*vfs);
    g_clock = &fault_;
    g_vfs = vfs_.get();
  }
  void TearDown() override {
    g_vfs = nullptr;
    g_clock = nullptr;
    if (unix_ && unix_->xSetSystemCall) {
      if (g_real_pwrite) unix_->xSetSystemCall(unix_, "pwrite", nullptr);
      if (g_real_pwrite64) unix_->xSetSystemCall(unix_, "pwrite64", nullptr);
    }
    vfs_.reset();
  }

  platform::FaultPlatform fault_{platform::Default()};
  std::unique_ptr<platform::ScratchDir> scratch_;
  std::unique_ptr<CountingVfs> vfs_;
  sqlite3_vfs* unix_ = nullptr;
};

TEST_F(CommitRunCheckpointTest, TheCommitThatCheckpointsIsTimedWithoutTheCheckpoint) {
  CommitOptions o;
  o.repetitions = 1;
  o.warmup_commits = 2;
  o.fixed_commits = 2500;  // single-row commits add about a frame each: past 1000 frames
  CommitConfig c{JournalMode::kWal, Synchronous::kNormal, 1, StatementMode::kReused, 100,
                 std::nullopt};
  CommitResult r = RunCommitConfig(fault_, *vfs_, scratch_->work_path(), "t.db", c, o);
  ASSERT_EQ(r.outcome, probes::Outcome::kOk) << r.reason;
  ASSERT_EQ(r.commits, 2500u);
  ASSERT_GE(r.checkpoints.count, 1u) << "no autocheckpoint ran: the test proves nothing";
  // The checkpoints took their (fake) hours, and are counted as such...
  EXPECT_GE(r.checkpoints.ns, r.checkpoints.count * kCheckpointWriteNs);
  EXPECT_GT(r.checkpoints.counts.of(FileKind::kDb).writes, 0u);
  // ...and no commit's latency holds any of it (each commit is a few clock readings).
  EXPECT_LT(r.latency.max, kCheckpointWriteNs) << "a commit kept its checkpoint's time";
  EXPECT_LT(r.timed_ns, kCheckpointWriteNs);
  ASSERT_EQ(r.repetition_windows.size(), 1u);
  EXPECT_LT(r.repetition_windows[0].commit_ns, kCheckpointWriteNs);
}

}  // namespace
}  // namespace durprobe::sqlite_bench
