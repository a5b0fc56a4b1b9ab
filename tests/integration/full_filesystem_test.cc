// A full filesystem for real: small tmpfs volumes (root only), filled before the run (the free
// space check refuses with one line: needed and free) and during it (SQLite meets ENOSPC:
// errors, not crashes), and a report that cannot be written (no partial file left).
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/fault_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::RunDurprobe;
using testing_support::RunShell;
using testing_support::ScratchLeft;
using testing_support::TempDir;

class FullFilesystemTest : public ::testing::Test {
 protected:
  // Mounts a tmpfs of size at a fresh directory; skips without root or mount permission.
  std::string Mount(const std::string& size) {
    if (!testing_support::IsRoot()) return "";
    auto dir = std::make_unique<TempDir>();
    if (::mount("tmpfs", dir->path().c_str(), "tmpfs", 0, ("size=" + size).c_str()) != 0) {
      return "";
    }
    mounts_.push_back(std::move(dir));
    return mounts_.back()->path();
  }
  // Fills dir's filesystem to the last byte.
  static void Fill(const std::string& dir) {
    RunShell("dd if=/dev/zero of=" + dir +
             "/filler bs=64k 2>/dev/null; "
             "dd if=/dev/zero of=" +
             dir + "/filler-tail bs=1 2>/dev/null");
  }
  void TearDown() override {
    for (auto& m : mounts_) ::umount2(m->path().c_str(), MNT_DETACH);
  }
  std::vector<std::unique_ptr<TempDir>> mounts_;
};

#define MOUNT_OR_SKIP(var, size) \
  std::string var = Mount(size); \
  if (var.empty()) GTEST_SKIP() << "needs root and permission to mount a tmpfs here";

TEST_F(FullFilesystemTest, AFullVolumeIsRefusedBeforeWritingWithNeededAndFree) {
  MOUNT_OR_SKIP(dir, "4m");
  Fill(dir);
  for (const std::string& args : {"probe --quick " + dir, "sqlite --quick " + dir,
                                  "run --quick " + dir, "compare --quick " + dir + " " + dir}) {
    CliRun run = RunDurprobe(args);
    testing_support::ExpectUsageError(
        run, "not enough free space in " + dir + ": this run needs about", args);
    EXPECT_NE(run.err.find("and 0 B is free"), std::string::npos) << run.err;
    EXPECT_TRUE(ScratchLeft(dir).empty()) << args;
  }
}

// 4 MiB free: enough for --file-size 1m probes, too little for the default 16 MiB file.
TEST_F(FullFilesystemTest, APlanLargerThanTheFreeSpaceIsRefusedAndASmallerOneRuns) {
  MOUNT_OR_SKIP(dir, "4m");
  CliRun big = RunDurprobe("probe --quick --primitives fsync " + dir);
  testing_support::ExpectUsageError(big, "needs about 17 MiB of scratch and 4 MiB is free", "big");
  CliRun small = RunDurprobe("probe --quick --budget 1s --primitives fsync --file-size 1m " + dir);
  EXPECT_EQ(small.exit_code, 0) << small.err;
  EXPECT_TRUE(ScratchLeft(dir).empty());
}

// Issue 35 item 4: check's background load (the etcd preset's backend syncs write an 8 MiB file)
// starts before the run; its files are checked against the free space too, before a byte is
// written, instead of meeting "pwrite: No space left on device".
TEST_F(FullFilesystemTest, TheBackgroundLoadIsRefusedBeforeWritingWithNeededAndFree) {
  MOUNT_OR_SKIP(dir, "3m");
  CliRun etcd = RunDurprobe("check --preset etcd --quick " + dir);
  testing_support::ExpectUsageError(
      etcd, "not enough free space in " + dir + ": this run needs about 8 MiB", "etcd");
  EXPECT_EQ(etcd.err.find("No space left"), std::string::npos) << etcd.err;
  EXPECT_TRUE(ScratchLeft(dir).empty());
}

// A budget-bound matrix on a small volume: the rows each configuration may write are capped to
// the free space before the run (context.options.sqlite_max_rows), so the volume never fills and
// no row meets SQLITE_FULL ("database or disk is full" was every row's error before the cap).
TEST_F(FullFilesystemTest, ABudgetBoundMatrixIsCappedToTheRoomAndNeverFillsIt) {
  MOUNT_OR_SKIP(dir, "24m");
  TempDir out;
  std::string json_path = out.path() + "/report.json";
  CliRun run = RunDurprobe(
      "sqlite --no-probes --journal-modes delete,wal --synchronous off "
      "--batch 100 --payload 1k --budget 6s --quiet --json " +
      json_path + " " + dir);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("database or disk is full"), std::string::npos) << run.err;
  nlohmann::json report = nlohmann::json::parse(testing_support::Slurp(json_path));
  EXPECT_TRUE(report["context"]["options"].contains("sqlite_max_rows"))
      << report["context"]["options"].dump();
  ASSERT_FALSE(report["targets"][0]["sqlite"].empty());
  for (const auto& row : report["targets"][0]["sqlite"]) {
    EXPECT_EQ(row["status"], "ok") << row.dump();
  }
  EXPECT_TRUE(ScratchLeft(dir).empty());
  auto names = platform::Default().ListDirectory(dir);
  ASSERT_TRUE(names.ok());
  EXPECT_TRUE(names->empty());
}

// The report's destination is full: one line, exit 2, and no partial report file.
TEST_F(FullFilesystemTest, AReportThatCannotBeWrittenLeavesNoPartialFile) {
  MOUNT_OR_SKIP(dest, "1m");
  Fill(dest);
  TempDir target;
  CliRun run = RunDurprobe("inspect --quiet --json " + dest + "/report.json " + target.path());
  testing_support::ExpectUsageError(run, "cannot write the report", "report on a full volume");
  EXPECT_NE(run.err.find("No space left on device"), std::string::npos) << run.err;
  auto names = platform::Default().ListDirectory(dest);
  ASSERT_TRUE(names.ok());
  for (const std::string& n : *names) EXPECT_EQ(n.rfind("filler", 0), 0u) << n;
}

}  // namespace
}  // namespace durprobe
