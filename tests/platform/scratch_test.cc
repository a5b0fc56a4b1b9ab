#include "platform/scratch.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tests/test_dirs.h"

namespace durprobe::platform {
namespace {

class ScratchTest : public ::testing::Test {
 protected:
  Platform& p_ = Default();
  testing_support::TempDir target_;
};

TEST_F(ScratchTest, CreatesAMarkedDirectoryAndRemovesIt) {
  std::string path;
  {
    Result<std::unique_ptr<ScratchDir>> dir = ScratchDir::Create(p_, target_.path());
    ASSERT_TRUE(dir.ok()) << dir.status().message();
    path = (*dir)->path();
    EXPECT_EQ(path.rfind(target_.path() + "/" + std::string(kScratchPrefix), 0), 0u);
    EXPECT_TRUE(IsScratchDirectory(p_, path));
    ASSERT_TRUE(p_.WriteTextFile((*dir)->FilePath("data"), "x").ok());
  }
  EXPECT_EQ(p_.KindOf(path), PathKind::kMissing);
}

TEST_F(ScratchTest, TwoScratchDirectoriesGetDistinctNames) {
  auto a = ScratchDir::Create(p_, target_.path());
  auto b = ScratchDir::Create(p_, target_.path());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE((*a)->path(), (*b)->path());
}

TEST_F(ScratchTest, CleanRemovesLeftoversOfDeadProcesses) {
  std::string left = target_.path() + "/" + std::string(kScratchPrefix) + "999999-0";
  ASSERT_TRUE(p_.MakeDirectory(left).ok());
  ASSERT_TRUE(p_.MakeDirectory(left + "/sub").ok());
  ASSERT_TRUE(p_.WriteTextFile(left + "/sub/db", "data").ok());
  ASSERT_TRUE(p_.WriteTextFile(left + "/" + std::string(kScratchMarker),
                               std::string(kScratchMarkerFirstLine) + "\npid=2147483000\n").ok());
  Result<CleanOutcome> out = CleanScratch(p_, target_.path());
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->removed.size(), 1u);
  EXPECT_EQ(p_.KindOf(left), PathKind::kMissing);
}

TEST_F(ScratchTest, CleanNeverRemovesUnmarkedOrForeignDirectories) {
  std::string prefixed_unmarked = target_.path() + "/" + std::string(kScratchPrefix) + "1-1";
  std::string wrong_marker = target_.path() + "/" + std::string(kScratchPrefix) + "1-2";
  std::string user_dir = target_.path() + "/important";
  for (const std::string& d : {prefixed_unmarked, wrong_marker, user_dir}) {
    ASSERT_TRUE(p_.MakeDirectory(d).ok());
    ASSERT_TRUE(p_.WriteTextFile(d + "/file", "keep me").ok());
  }
  ASSERT_TRUE(p_.WriteTextFile(wrong_marker + "/" + std::string(kScratchMarker), "someone else\n").ok());
  // A marked directory without the prefix is not ours either.
  ASSERT_TRUE(p_.WriteTextFile(user_dir + "/" + std::string(kScratchMarker),
                               std::string(kScratchMarkerFirstLine) + "\npid=1\n").ok());
  Result<CleanOutcome> out = CleanScratch(p_, target_.path());
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->removed.empty());
  for (const std::string& d : {prefixed_unmarked, wrong_marker, user_dir}) {
    EXPECT_EQ(p_.KindOf(d + "/file"), PathKind::kFile) << d;
  }
}

TEST_F(ScratchTest, CleanSparesTheScratchOfALiveProcess) {
  std::string live = target_.path() + "/" + std::string(kScratchPrefix) + "1-0";
  ASSERT_TRUE(p_.MakeDirectory(live).ok());
  // pid 1 always exists.
  ASSERT_TRUE(p_.WriteTextFile(live + "/" + std::string(kScratchMarker),
                               std::string(kScratchMarkerFirstLine) + "\npid=1\n").ok());
  Result<CleanOutcome> out = CleanScratch(p_, target_.path());
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->skipped_live.size(), 1u);
  EXPECT_EQ(p_.KindOf(live), PathKind::kDirectory);
}

TEST_F(ScratchTest, RemoveTreeDoesNotFollowSymlinksOut) {
  std::string outside = target_.path() + "/outside";
  ASSERT_TRUE(p_.MakeDirectory(outside).ok());
  ASSERT_TRUE(p_.WriteTextFile(outside + "/precious", "x").ok());
  auto dir = ScratchDir::Create(p_, target_.path());
  ASSERT_TRUE(dir.ok());
  ASSERT_EQ(testing_support::Symlink(outside, (*dir)->FilePath("link")), 0);
  ASSERT_TRUE((*dir)->Remove().ok());
  EXPECT_EQ(p_.KindOf(outside + "/precious"), PathKind::kFile);
}

}  // namespace
}  // namespace durprobe::platform
