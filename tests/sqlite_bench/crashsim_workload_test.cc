// The crashsim workload: acknowledged commits counted up to the crash, and nothing after it.
#include "sqlite_bench/crashsim_workload.h"

#include <gtest/gtest.h>

namespace durprobe::sqlite_bench {
namespace {

std::unique_ptr<CrashVfs> Register(const std::string& name) {
  Result<std::unique_ptr<CrashVfs>> vfs = CrashVfs::Register(name, DeviceModel{});
  return vfs.ok() ? std::move(*vfs) : nullptr;
}

TEST(CrashsimWorkloadTest, WithoutACrashEveryCommitIsAcknowledged) {
  std::unique_ptr<CrashVfs> vfs = Register("crashsim-workload-test-none");
  ASSERT_TRUE(vfs);
  CrashWorkloadOptions o;
  o.commits = 5;
  CrashRun run =
      RunCrashWorkload(*vfs, {JournalMode::kWal, Synchronous::kFull, 2}, o, CrashVfs::kNever);
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  EXPECT_EQ(run.acked, 5u);
  EXPECT_FALSE(run.crashed_inside);
  EXPECT_GT(run.calls, 5u) << "each FULL commit writes and syncs";
  EXPECT_TRUE(vfs->crashed()) << "the power is out when the workload returns";
}

TEST(CrashsimWorkloadTest, ACrashAtTheFirstCallAcknowledgesNothingAndAfterTheLastEverything) {
  std::unique_ptr<CrashVfs> vfs = Register("crashsim-workload-test-points");
  ASSERT_TRUE(vfs);
  CrashWorkloadOptions o;
  o.commits = 4;
  CrashsimConfig config{JournalMode::kDelete, Synchronous::kFull, 1};
  CrashRun dry = RunCrashWorkload(*vfs, config, o, CrashVfs::kNever);
  CrashRun first = RunCrashWorkload(*vfs, config, o, 1);
  EXPECT_EQ(first.acked, 0u);
  EXPECT_TRUE(first.crashed_inside);
  EXPECT_EQ(first.calls, 1u);
  CrashRun after = RunCrashWorkload(*vfs, config, o, dry.calls + 1);
  EXPECT_EQ(after.acked, 4u);
  EXPECT_FALSE(after.crashed_inside);
  CrashRun middle = RunCrashWorkload(*vfs, config, o, dry.calls / 2);
  EXPECT_GT(middle.acked, 0u);
  EXPECT_LT(middle.acked, 4u);
}

TEST(CrashsimWorkloadTest, TheMemoryJournalModeRunsToo) {
  std::unique_ptr<CrashVfs> vfs = Register("crashsim-workload-test-mode");
  ASSERT_TRUE(vfs);
  // Beyond crashsim's default four: the journal in memory is a mode SQLite accepts.
  CrashRun run =
      RunCrashWorkload(*vfs, {JournalMode::kMemory, Synchronous::kFull, 1}, {}, CrashVfs::kNever);
  EXPECT_TRUE(run.status.ok()) << run.status.message();
}

}  // namespace
}  // namespace durprobe::sqlite_bench
