// Issue 32 points 1 and 4: a ScratchDir is worked through the descriptor it holds. A rename of
// it, or a symlink put in its place, cannot send a file elsewhere, and CheckInPlace says what
// happened; messages name the real path; the marker's lock tells `clean` the run is live.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "platform/scratch.h"
#include "tests/cli_runner.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::platform {
namespace {

using testing_support::Slurp;

class ScratchDescriptorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (p_.DescriptorPath(0).status().unsupported()) {
      GTEST_SKIP() << "this OS has no path through a directory's descriptor";
    }
  }
  Platform& p_ = Default();
  testing_support::TempDir target_, victim_;
};

TEST_F(ScratchDescriptorTest, WorkPathIsTheHeldDirectoryNotItsName) {
  auto dir = ScratchDir::Create(p_, target_.path());
  ASSERT_TRUE(dir.ok()) << dir.status().message();
  EXPECT_EQ((*dir)->work_path().rfind("/proc/self/fd/", 0), 0u) << (*dir)->work_path();
  EXPECT_EQ((*dir)->shown_path().rfind(target_.path() + "/", 0), 0u);
  EXPECT_TRUE((*dir)->CheckInPlace().ok());
}

// The attack: the scratch renamed away, a symlink to a victim directory in its place. A file
// made after the swap lands in the held (moved) directory; the victim's probe.dat is untouched.
TEST_F(ScratchDescriptorTest, ASymlinkInTheScratchsPlaceIsNeverFollowed) {
  auto dir = ScratchDir::Create(p_, target_.path());
  ASSERT_TRUE(dir.ok()) << dir.status().message();
  ASSERT_TRUE(p_.WriteTextFile(victim_.path() + "/probe.dat", "sentinel").ok());
  std::string name = (*dir)->shown_path(), moved = target_.path() + "/moved";
  ASSERT_TRUE(p_.Rename(name, moved).ok());
  ASSERT_EQ(testing_support::Symlink(victim_.path(), name), 0);

  Result<FileHandle> f = p_.Open((*dir)->FilePath("probe.dat"), {.create = true, .truncate = true});
  ASSERT_TRUE(f.ok()) << f.status().message();
  ASSERT_TRUE(p_.PWrite(f->get(), "x", 1, 0).ok());
  EXPECT_EQ(Slurp(victim_.path() + "/probe.dat"), "sentinel");
  EXPECT_EQ(Slurp(moved + "/probe.dat"), "x");

  Status here = (*dir)->CheckInPlace();
  EXPECT_FALSE(here.ok());
  EXPECT_NE(here.message().find("scratch " + name + " was replaced by a symlink during the run"),
            std::string::npos)
      << here.message();
  EXPECT_FALSE((*dir)->Remove().ok());  // emptied where it went; its name is someone else's
  EXPECT_EQ(Slurp(victim_.path() + "/probe.dat"), "sentinel");
  EXPECT_EQ(p_.KindOf(moved + "/probe.dat"), PathKind::kMissing);
}

TEST_F(ScratchDescriptorTest, AScratchMovedAwayIsSaidSo) {
  auto dir = ScratchDir::Create(p_, target_.path());
  ASSERT_TRUE(dir.ok()) << dir.status().message();
  ASSERT_TRUE(p_.Rename((*dir)->shown_path(), target_.path() + "/elsewhere").ok());
  Status here = (*dir)->CheckInPlace();
  EXPECT_NE(here.message().find("was moved away"), std::string::npos) << here.message();
}

// Messages built from the work path name the real one.
TEST_F(ScratchDescriptorTest, MessagesNameTheRealPath) {
  auto dir = ScratchDir::Create(p_, target_.path());
  ASSERT_TRUE(dir.ok()) << dir.status().message();
  Result<FileHandle> f = p_.Open((*dir)->FilePath("missing/probe.dat"), {});
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find((*dir)->shown_path() + "/missing/probe.dat"),
            std::string::npos)
      << f.status().message();
  EXPECT_EQ(f.status().message().find("/proc/self/fd"), std::string::npos);
}

// Without /proc the scratch is refused in one line, and nothing is left.
TEST_F(ScratchDescriptorTest, NoDescriptorPathRefusesTheScratchAndLeavesNone) {
  FaultPlatform faulty(p_);
  faulty.FailDescriptorPath(Status::Error("/proc is not mounted"));
  auto dir = ScratchDir::Create(faulty, target_.path());
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("/proc is not mounted"), std::string::npos);
  Result<std::vector<std::string>> left = p_.ListDirectory(target_.path());
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(left->empty());
}

// Point 4: the marker's lock, not the pid's program name, says a run is live (here the pid is
// this test's own, whose name is not durprobe).
TEST_F(ScratchDescriptorTest, CleanSparesAScratchWhoseRunHoldsTheLock) {
  auto dir = ScratchDir::Create(p_, target_.path());
  ASSERT_TRUE(dir.ok()) << dir.status().message();
  ASSERT_TRUE(p_.WriteTextFile((*dir)->FilePath("bench.db"), "live").ok());
  Result<CleanOutcome> out = CleanScratch(p_, target_.path());
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->skipped_live.size(), 1u);
  EXPECT_TRUE(out->removed.empty());
  EXPECT_EQ(Slurp((*dir)->FilePath("bench.db")), "live");
  EXPECT_TRUE((*dir)->Remove().ok());
}

}  // namespace
}  // namespace durprobe::platform
