// `durprobe clean` among hostile decoys (issue 53 point 7): a scratch-named tree too deep for any
// durprobe scratch is left and reported, one another user owns or others can write is never
// entered, and neither keeps clean from removing the real leftover beside it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "platform/scratch.h"
#include "platform/scratch_tree.h"
#include "tests/test_dirs.h"

namespace durprobe::platform::scratch_clean_test {

class ScratchCleanTest : public ::testing::Test {
 protected:
  // A leftover as a killed run leaves it: named and marked with a pid no process has.
  std::string Leftover(int pid) {
    const std::string dir =
        target_.path() + "/" + std::string(kScratchPrefix) + std::to_string(pid) + "-0";
    EXPECT_TRUE(p_.MakeDirectory(dir).ok());
    EXPECT_TRUE(p_.WriteTextFile(
                      dir + "/" + std::string(kScratchMarker),
                      std::string(kScratchMarkerFirstLine) + "\npid=" + std::to_string(pid) + "\n")
                    .ok());
    EXPECT_TRUE(p_.WriteTextFile(dir + "/data", "scratch data").ok());
    return dir;
  }
  // depth directories d/d/d/... under dir, a file at the bottom; made by descriptor, as the
  // path outgrows PATH_MAX.
  static void Chain(const std::string& dir, int depth) {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    ASSERT_GE(fd, 0);
    for (int i = 0; i < depth; ++i) {
      ASSERT_EQ(::mkdirat(fd, "d", 0700), 0) << "level " << i;
      int sub = ::openat(fd, "d", O_RDONLY | O_DIRECTORY);
      ::close(fd);
      ASSERT_GE(sub, 0);
      fd = sub;
    }
    int file = ::openat(fd, "bottom", O_WRONLY | O_CREAT, 0600);
    EXPECT_GE(file, 0);
    ::close(file);
    ::close(fd);
  }
  void TearDown() override {  // what clean rightly left: rm walks any depth
    EXPECT_EQ(std::system(("rm -rf " + target_.path() + "/.durprobe-*").c_str()), 0);
  }
  Platform& p_ = Default();
  testing_support::TempDir target_;
};

TEST_F(ScratchCleanTest, ATreeTooDeepIsReportedAndTheRealLeftoverStillGoes) {
  const std::string deep = Leftover(2147483002);
  Chain(deep, 2000);
  const std::string real = Leftover(2147483003);
  ASSERT_TRUE(p_.MakeDirectory(real + "/sub").ok());
  ASSERT_TRUE(p_.WriteTextFile(real + "/sub/db", "x").ok());
  Result<CleanOutcome> out = CleanScratch(p_, target_.path());
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->removed, std::vector<std::string>{real});
  EXPECT_EQ(p_.KindOf(real), PathKind::kMissing);
  ASSERT_EQ(out->failed.size(), 1u);
  EXPECT_EQ(out->failed[0].dir, deep);
  EXPECT_NE(out->failed[0].why.find("deeper than 64 levels"), std::string::npos)
      << out->failed[0].why;
  // Left whole: the bound is checked before anything of it is removed.
  EXPECT_EQ(p_.KindOf(deep + "/data"), PathKind::kFile);
}

TEST_F(ScratchCleanTest, EmptyingGoesOnPastWhatItCannotEnter) {
  const std::string dir = Leftover(2147483004);
  ASSERT_TRUE(p_.MakeDirectory(dir + "/a").ok());
  Chain(dir + "/a", kMaxScratchDepth + 5);
  ASSERT_TRUE(p_.MakeDirectory(dir + "/b").ok());
  ASSERT_TRUE(p_.WriteTextFile(dir + "/b/file", "x").ok());
  Result<FileHandle> fd = p_.OpenDirectoryAt(kNoDirectory, dir, false);
  ASSERT_TRUE(fd.ok());
  Result<EntryStat> st = p_.StatAt(fd->get(), "");
  ASSERT_TRUE(st.ok());
  Status s = EmptyDirectoryAt(p_, fd->get(), st->dev, dir, kScratchMarker);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("deeper than"), std::string::npos) << s.message();
  // Whichever of a and b came first, b and the top's own file went.
  EXPECT_EQ(p_.KindOf(dir + "/b"), PathKind::kMissing);
  EXPECT_EQ(p_.KindOf(dir + "/data"), PathKind::kMissing);
  EXPECT_EQ(p_.KindOf(dir + "/" + std::string(kScratchMarker)), PathKind::kFile);
  // What is left is the chain, still too deep to look into.
  Result<std::string> mount = MountInside(p_, fd->get(), st->dev, dir);
  ASSERT_FALSE(mount.ok());
  EXPECT_NE(mount.status().message().find("deeper than"), std::string::npos);
}

TEST_F(ScratchCleanTest, AScratchOthersCanWriteIsNeverEntered) {
  const std::string open_dir = Leftover(2147483005);
  ASSERT_EQ(::chmod(open_dir.c_str(), 0777), 0);
  const std::string real = Leftover(2147483006);
  Result<CleanOutcome> out = CleanScratch(p_, target_.path());
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->removed, std::vector<std::string>{real});
  ASSERT_EQ(out->not_owned.size(), 1u);
  EXPECT_EQ(out->not_owned[0].dir, open_dir);
  EXPECT_NE(out->not_owned[0].why.find("writable by others (mode 0777)"), std::string::npos);
  EXPECT_EQ(p_.KindOf(open_dir + "/data"), PathKind::kFile);
  EXPECT_TRUE(out->failed.empty());
}

TEST_F(ScratchCleanTest, AnotherUsersScratchIsNeverEntered) {
  if (!testing_support::IsRoot()) GTEST_SKIP() << "needs root to give a directory to uid 65534";
  const std::string theirs = Leftover(2147483007);
  ASSERT_EQ(::chown(theirs.c_str(), 65534, 65534), 0);
  Result<CleanOutcome> out = CleanScratch(p_, target_.path());
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_TRUE(out->removed.empty());
  ASSERT_EQ(out->not_owned.size(), 1u);
  EXPECT_NE(out->not_owned[0].why.find("owned by uid 65534"), std::string::npos);
  EXPECT_EQ(p_.KindOf(theirs + "/data"), PathKind::kFile);
}

}  // namespace durprobe::platform::scratch_clean_test
