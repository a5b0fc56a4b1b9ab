// The background load's synced writes (a preset's companion: etcd's bbolt commits): each is one
// write of the asked size, then one fdatasync, into a file of their own; no read/write file is
// made when no reads or writes are asked; a failed sync stops the load and is its status.
#include "probes/background_load.h"

#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <thread>

#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::probes {
namespace {

TEST(BackgroundLoadTest, SyncedWritesAreOneWriteThenOneSyncEach) {
  testing_support::TempDir dir;
  platform::FaultPlatform traced(platform::Default());
  Result<std::unique_ptr<BackgroundLoad>> load =
      BackgroundLoad::Start(traced, dir.path(), {.syncs_per_sec = 500, .sync_bytes = 36 * 1024});
  ASSERT_TRUE(load.ok()) << load.status().message();
  Result<std::vector<std::string>> files = traced.ListDirectory(dir.path());
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(*files, std::vector<std::string>{"background-syncs"});
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  LoadOutcome outcome = (*load)->Stop();
  EXPECT_TRUE(outcome.status.ok()) << outcome.status.message();
  EXPECT_EQ(outcome.achieved.sync_bytes, 36u * 1024);
  // Setup: 8 MiB in 1 MiB writes and one sync; then write + sync per synced write, nothing else.
  EXPECT_TRUE(std::regex_match(traced.call_trace(), std::regex("w{8}s(ws)*")))
      << traced.call_trace();
  std::size_t synced = (traced.call_trace().size() - 9) / 2;
  EXPECT_NEAR(outcome.achieved.syncs_per_sec * outcome.seconds, static_cast<double>(synced), 0.5);
  EXPECT_TRUE(traced.ListDirectory(dir.path())->empty());
}

TEST(BackgroundLoadTest, AFailedSyncStopsTheLoadAndIsItsStatus) {
  testing_support::TempDir dir;
  platform::FaultPlatform faulty(platform::Default());
  faulty.FailSyncs(EIO, 1);  // the setup's sync succeeds, the first synced write's fails
  Result<std::unique_ptr<BackgroundLoad>> load =
      BackgroundLoad::Start(faulty, dir.path(), {.syncs_per_sec = 1000, .sync_bytes = 4096});
  ASSERT_TRUE(load.ok()) << load.status().message();
  // The first synced write is due at once; the trace is read only after Stop joined the thread.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  LoadOutcome outcome = (*load)->Stop();
  EXPECT_EQ(outcome.status.error_number(), EIO) << outcome.status.message();
  EXPECT_EQ(faulty.call_trace(), "wwwwwwwwsws");  // setup, then one write and its failed sync
  EXPECT_TRUE(faulty.ListDirectory(dir.path())->empty());
}

TEST(BackgroundLoadTest, ASyncedWriteOverItsFileIsRefused) {
  testing_support::TempDir dir;
  Result<std::unique_ptr<BackgroundLoad>> load = BackgroundLoad::Start(
      platform::Default(), dir.path(), {.syncs_per_sec = 1, .sync_bytes = 9u << 20});
  EXPECT_FALSE(load.ok());
  EXPECT_TRUE(platform::Default().ListDirectory(dir.path())->empty());
}

}  // namespace
}  // namespace durprobe::probes
