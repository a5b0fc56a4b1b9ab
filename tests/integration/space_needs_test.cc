// Issue 57's space points on small tmpfs volumes of our own (root only; skipped otherwise): the
// crash device's need counted from what the command makes, a refusal that names only options the
// command has, a batch sweep whose rows fit the volume, and a read-only target called read-only.
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/fault_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::RunDurprobe;
using testing_support::ScratchLeft;
using testing_support::TempDir;

class SpaceNeedsTest : public ::testing::Test {
 protected:
  // Mounts a tmpfs with options at a fresh directory; "" without root or mount permission.
  std::string Mount(const std::string& options, unsigned long flags = 0) {
    if (!testing_support::IsRoot()) return "";
    auto dir = std::make_unique<TempDir>();
    if (::mount("tmpfs", dir->path().c_str(), "tmpfs", flags, options.c_str()) != 0) return "";
    mounts_.push_back(std::move(dir));
    return mounts_.back()->path();
  }
  void TearDown() override {
    for (auto& m : mounts_) ::umount2(m->path().c_str(), MNT_DETACH);
  }
  std::vector<std::unique_ptr<TempDir>> mounts_;
};

#define SPACE_MOUNT_OR_SKIP(var, ...)   \
  std::string var = Mount(__VA_ARGS__); \
  if (var.empty()) GTEST_SKIP() << "needs root and permission to mount a tmpfs here";

// faults counted xfs's image and its base (641 MiB) for one ext4, and asked for a smaller
// --file-size, which faults does not have.
TEST_F(SpaceNeedsTest, FaultsCountsTheFilesystemsItMakesAndNamesOnlyItsOwnOptions) {
  SPACE_MOUNT_OR_SKIP(dir, "size=200m");
  CliRun ext4 = RunDurprobe("faults --fs ext4 " + dir);
  testing_support::ExpectUsageError(ext4, "this run needs about 257 MiB of scratch", "faults ext4");
  EXPECT_EQ(ext4.err.find("--file-size"), std::string::npos) << ext4.err;
  EXPECT_EQ(ext4.err.find("--commits"), std::string::npos) << ext4.err;
  CliRun xfs = RunDurprobe("faults --fs ext4,xfs " + dir);
  testing_support::ExpectUsageError(xfs, "needs about 641 MiB", "faults ext4,xfs");
  EXPECT_NE(xfs.err.find("ask for less: --fs without xfs"), std::string::npos) << xfs.err;
  CliRun crashtest = RunDurprobe("crashtest --fs ext4 " + dir);
  testing_support::ExpectUsageError(crashtest, "needs about 385 MiB", "crashtest ext4");
  EXPECT_EQ(crashtest.err.find("--file-size"), std::string::npos) << crashtest.err;
  EXPECT_TRUE(ScratchLeft(dir).empty());
}

// A 1 MiB read-only tmpfs was "not enough free space".
TEST_F(SpaceNeedsTest, AReadOnlyTargetIsCalledReadOnly) {
  SPACE_MOUNT_OR_SKIP(dir, "size=1m", MS_RDONLY);
  for (const std::string& args :
       {"probe --quick " + dir, "sqlite --quick " + dir, "faults --fs ext4 " + dir}) {
    CliRun run = RunDurprobe(args);
    testing_support::ExpectUsageError(run, dir + " is on a read-only filesystem", args);
    EXPECT_EQ(run.err.find("free space"), std::string::npos) << run.err;
  }
}

// `sqlite --batch 1,10,100,1000` on a small volume: its budget-bound configurations wrote rows
// until the volume was full and every row failed `database or disk is full`.
TEST_F(SpaceNeedsTest, ABatchSweepFitsItsRowsToTheVolume) {
  SPACE_MOUNT_OR_SKIP(dir, "size=24m");
  CliRun run = RunDurprobe(
      "sqlite --quick --no-probes --journal-modes wal --synchronous normal "
      "--batch 1,10,100,1000 --json - " +
      dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["targets"][0]["sqlite"].size(), 4u) << run.out;
  for (const nlohmann::json& row : j["targets"][0]["sqlite"]) {
    EXPECT_EQ(row.value("status", "ok"), "ok") << row.dump();
  }
  EXPECT_TRUE(j["context"]["options"].contains("sqlite_max_rows")) << j["context"]["options"];
  EXPECT_TRUE(ScratchLeft(dir).empty());
}

#undef SPACE_MOUNT_OR_SKIP

}  // namespace
}  // namespace durprobe
