// The commit session's device warm-up: once, before the first configuration only, through the
// platform (so a fault platform counts and fails its syncs), its file gone afterwards, and a
// failed warm-up sync reported on the first configuration instead of being retried.
#include "sqlite_bench/device_warmup.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <memory>
#include <string>

#include "platform/scratch.h"
#include "sqlite_bench/commit_bench.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::sqlite_bench {
namespace {

class DeviceWarmupTest : public ::testing::Test {
 protected:
  void SetUp() override { fake_.UseFakeClock(); }

  bool WarmupFileLeft() const {
    return platform::Default().KindOf(dir_.path() + "/" + kDeviceWarmupFile) !=
           platform::PathKind::kMissing;
  }

  static CommitOptions Options() {
    CommitOptions o;
    o.repetitions = 1;
    o.warmup_commits = 1;
    o.fixed_commits = 3;
    o.budget_ns = 10'000'000'000;
    o.device_warmup_ns = 50'000'000;
    return o;
  }

  static CommitConfig Config() {
    return CommitConfig{JournalMode::kWal, Synchronous::kFull, 1, StatementMode::kReused, 100,
                        std::nullopt};
  }

  testing_support::TempDir dir_;
  platform::FaultPlatform fake_{platform::Default()};
};

TEST_F(DeviceWarmupTest, SyncsForItsTimeAndRemovesItsFile) {
  fake_.AddSyncLatency(10'000'000);  // 10 ms per sync on the fake clock
  Result<DeviceWarmup> warm = WarmUpDevice(fake_, dir_.path(), 50'000'000);
  ASSERT_TRUE(warm.ok()) << warm.status().message();
  EXPECT_EQ(warm->syncs, 5u);
  EXPECT_EQ(fake_.sync_calls(), 5);
  EXPECT_EQ(warm->ns, 50'000'000u);
  EXPECT_FALSE(WarmupFileLeft());
}

TEST_F(DeviceWarmupTest, SyncsAtLeastItsMinimumWhenTimeIsShort) {
  Result<DeviceWarmup> warm = WarmUpDevice(fake_, dir_.path(), 0);
  ASSERT_TRUE(warm.ok()) << warm.status().message();
  EXPECT_EQ(warm->syncs, kDeviceWarmupMinSyncs);
}

TEST_F(DeviceWarmupTest, AFailedSyncStopsItOnceAndTheFileIsRemoved) {
  fake_.FailSyncs(EIO, 2);
  Result<DeviceWarmup> warm = WarmUpDevice(fake_, dir_.path(), 50'000'000);
  ASSERT_FALSE(warm.ok());
  EXPECT_EQ(warm.status().error_number(), EIO);
  EXPECT_EQ(fake_.sync_calls(), 3);  // two that passed, the failed one, never retried
  EXPECT_FALSE(WarmupFileLeft());
}

TEST_F(DeviceWarmupTest, ASessionWarmsUpBeforeItsFirstConfigurationOnly) {
  auto session = CommitSession::Open(fake_, dir_.path());
  ASSERT_TRUE(session.ok()) << session.status().message();
  fake_.AddSyncLatency(10'000'000);
  CommitResult first = (*session)->Run(Config(), Options());
  ASSERT_EQ(first.outcome, probes::Outcome::kOk) << first.reason;
  // SQLite's own syncs go through its VFS, not the platform: these are the warm-up's.
  EXPECT_EQ(fake_.sync_calls(), 5);
  CommitResult second = (*session)->Run(Config(), Options());
  ASSERT_EQ(second.outcome, probes::Outcome::kOk) << second.reason;
  EXPECT_EQ(fake_.sync_calls(), 5);
  EXPECT_FALSE(WarmupFileLeft());
}

TEST_F(DeviceWarmupTest, NoWarmupWhenItsTimeIsZero) {
  auto session = CommitSession::Open(fake_, dir_.path());
  ASSERT_TRUE(session.ok()) << session.status().message();
  CommitOptions o = Options();
  o.device_warmup_ns = 0;
  CommitResult r = (*session)->Run(Config(), o);
  ASSERT_EQ(r.outcome, probes::Outcome::kOk) << r.reason;
  EXPECT_EQ(fake_.sync_calls(), 0);
}

TEST_F(DeviceWarmupTest, AFailedWarmupIsTheFirstConfigurationsErrorAndTheNextOneRuns) {
  auto session = CommitSession::Open(fake_, dir_.path());
  ASSERT_TRUE(session.ok()) << session.status().message();
  fake_.FailSyncs(EIO);
  CommitResult first = (*session)->Run(Config(), Options());
  EXPECT_EQ(first.outcome, probes::Outcome::kError);
  EXPECT_NE(first.reason.find("device warm-up"), std::string::npos) << first.reason;
  EXPECT_NE(first.reason.find("Input/output error"), std::string::npos) << first.reason;
  EXPECT_EQ(first.commits, 0u);
  fake_.FailSyncs(0);
  CommitResult second = (*session)->Run(Config(), Options());
  EXPECT_EQ(second.outcome, probes::Outcome::kOk) << second.reason;
}

}  // namespace
}  // namespace durprobe::sqlite_bench
