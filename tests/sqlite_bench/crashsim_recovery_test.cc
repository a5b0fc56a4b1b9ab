// Recovering a crash image with plain SQLite: a clean image reads back whole, a damaged one is
// corrupt, and the directory is gone afterwards.
#include "sqlite_bench/crashsim_recovery.h"

#include <gtest/gtest.h>

#include "sqlite_bench/crashsim_workload.h"
#include "tests/test_dirs.h"

namespace durprobe::sqlite_bench {
namespace {

using testing_support::TempDir;

DiskImage CleanImage(std::uint32_t commits, std::uint32_t rows) {
  Result<std::unique_ptr<CrashVfs>> vfs = CrashVfs::Register(
      "crashsim-recovery-test-" + std::to_string(commits) + "-" + std::to_string(rows), {});
  EXPECT_TRUE(vfs.ok());
  CrashWorkloadOptions o;
  o.commits = commits;
  RunCrashWorkload(**vfs, {JournalMode::kDelete, Synchronous::kFull, rows}, o, CrashVfs::kNever);
  return (*vfs)->disk().LiveImage();
}

TEST(CrashsimRecoveryTest, ACleanImageRecoversEveryCommitAndLeavesNothing) {
  TempDir dir;
  Result<RecoveryCheck> c = RecoverImage(platform::Default(), dir.path() + "/img", CleanImage(3, 2),
                                         2, CrashWorkloadOptions{}.payload_bytes);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_FALSE(c->corrupt) << c->problem;
  EXPECT_EQ(c->commits_present, 3u);
  EXPECT_EQ(platform::Default().KindOf(dir.path() + "/img"), platform::PathKind::kMissing);
}

TEST(CrashsimRecoveryTest, DamageIsCorruption) {
  TempDir dir;
  DiskImage image = CleanImage(2, 1);
  std::uint32_t payload = CrashWorkloadOptions{}.payload_bytes;
  DiskImage garbage = image;
  garbage[kCrashDbName].replace(0, 16, "not a database!!");
  Result<RecoveryCheck> c =
      RecoverImage(platform::Default(), dir.path() + "/g", garbage, 1, payload);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->corrupt);
  c = RecoverImage(platform::Default(), dir.path() + "/gone", DiskImage{}, 1, payload);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->corrupt);
  EXPECT_EQ(c->problem, "the database file itself is gone");
  // Rows checked against 3-row commits: 2 rows are a partial commit.
  c = RecoverImage(platform::Default(), dir.path() + "/partial", image, 3, payload);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->corrupt);
  EXPECT_NE(c->problem.find("partly present"), std::string::npos) << c->problem;
}

TEST(CrashsimRecoveryTest, EqualImagesHashEqualAndDifferentOnesDiffer) {
  DiskImage a{{"x", "ab"}, {"y", "c"}}, b{{"x", "a"}, {"y", "bc"}};
  EXPECT_EQ(HashImage(a), HashImage(DiskImage(a)));
  EXPECT_NE(HashImage(a), HashImage(b));
}

}  // namespace
}  // namespace durprobe::sqlite_bench
