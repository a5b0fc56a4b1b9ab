#include "platform/scratch.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "platform/scratch_tree.h"
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
    path = (*dir)->shown_path();
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
  EXPECT_NE((*a)->shown_path(), (*b)->shown_path());
}

TEST_F(ScratchTest, CleanRemovesLeftoversOfDeadProcesses) {
  std::string left = target_.path() + "/" + std::string(kScratchPrefix) + "999999-0";
  ASSERT_TRUE(p_.MakeDirectory(left).ok());
  ASSERT_TRUE(p_.MakeDirectory(left + "/sub").ok());
  ASSERT_TRUE(p_.WriteTextFile(left + "/sub/db", "data").ok());
  ASSERT_TRUE(p_.WriteTextFile(left + "/" + std::string(kScratchMarker),
                               std::string(kScratchMarkerFirstLine) + "\npid=2147483000\n")
                  .ok());
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
  ASSERT_TRUE(
      p_.WriteTextFile(wrong_marker + "/" + std::string(kScratchMarker), "someone else\n").ok());
  // A marked directory without the prefix is not ours either.
  ASSERT_TRUE(p_.WriteTextFile(user_dir + "/" + std::string(kScratchMarker),
                               std::string(kScratchMarkerFirstLine) + "\npid=1\n")
                  .ok());
  Result<CleanOutcome> out = CleanScratch(p_, target_.path());
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->removed.empty());
  for (const std::string& d : {prefixed_unmarked, wrong_marker, user_dir}) {
    EXPECT_EQ(p_.KindOf(d + "/file"), PathKind::kFile) << d;
  }
}

std::string MakeLeftover(Platform& p, const std::string& target, int pid) {
  std::string dir = target + "/" + std::string(kScratchPrefix) + std::to_string(pid) + "-0";
  EXPECT_TRUE(p.MakeDirectory(dir).ok());
  EXPECT_TRUE(
      p.WriteTextFile(dir + "/" + std::string(kScratchMarker),
                      std::string(kScratchMarkerFirstLine) + "\npid=" + std::to_string(pid) + "\n")
          .ok());
  return dir;
}

// A live process named durprobe: a copy of sleep(1) under that name, so /proc/PID/comm says so.
TEST_F(ScratchTest, CleanSparesTheScratchOfALiveDurprobe) {
  testing_support::TempDir bin;
  std::string program = bin.path() + "/durprobe";
  ASSERT_EQ(std::system(("cp /bin/sleep " + program).c_str()), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::execl(program.c_str(), "durprobe", "30", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Until exec has happened the child's name is still the test binary's.
  auto named = [&] {
    Result<std::string> name = p_.ProcessName(child);
    return name.ok() && *name == "durprobe";
  };
  for (int i = 0; i < 200 && !named(); ++i) {
    p_.SleepNanos(10'000'000);
  }
  std::string live = MakeLeftover(p_, target_.path(), child);
  Result<CleanOutcome> out = CleanScratch(p_, target_.path());
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->skipped_live, std::vector<std::string>{live});
  EXPECT_TRUE(out->removed.empty());
  EXPECT_EQ(p_.KindOf(live), PathKind::kDirectory);
}

// pid 1 always exists and is never durprobe (init, systemd, a container's entry point): the run
// that wrote the marker is gone and its pid was reused.
TEST_F(ScratchTest, CleanRemovesScratchWhosePidNowBelongsToAnotherProgram) {
  std::string left = MakeLeftover(p_, target_.path(), 1);
  Result<std::string> init = p_.ProcessName(1);
  ASSERT_TRUE(init.ok()) << init.status().message();
  ASSERT_NE(*init, "durprobe");
  Result<CleanOutcome> out = CleanScratch(p_, target_.path());
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->skipped_live.empty());
  ASSERT_EQ(out->reused_pid.size(), 1u);
  EXPECT_EQ(out->reused_pid[0].pid, 1);
  EXPECT_EQ(out->reused_pid[0].process, *init);
  EXPECT_EQ(out->removed, std::vector<std::string>{left});
  EXPECT_EQ(p_.KindOf(left), PathKind::kMissing);
}

// A symlink named like scratch, pointing at a directory that even holds a valid marker, is
// refused: clean never enters or deletes through a link.
TEST_F(ScratchTest, CleanRefusesASymlinkNamedLikeScratch) {
  testing_support::TempDir elsewhere;
  std::string fake = MakeLeftover(p_, elsewhere.path(), 999999);
  ASSERT_TRUE(p_.WriteTextFile(fake + "/precious", "keep").ok());
  std::string link = target_.path() + "/" + std::string(kScratchPrefix) + "999999-0";
  ASSERT_EQ(testing_support::Symlink(fake, link), 0);
  EXPECT_FALSE(IsScratchDirectory(p_, link));
  Result<CleanOutcome> out = CleanScratch(p_, target_.path());
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->removed.empty());
  EXPECT_EQ(out->refused, std::vector<std::string>{link});
  EXPECT_EQ(p_.KindOfNoFollow(link), PathKind::kSymlink);
  EXPECT_EQ(p_.KindOf(fake + "/precious"), PathKind::kFile);
}

// A marker that is itself a symlink, or that lacks a pid, is not a valid marker.
TEST_F(ScratchTest, CleanRefusesMarkersThatAreLinksOrHaveNoPid) {
  testing_support::TempDir elsewhere;
  std::string real_marker = elsewhere.path() + "/marker";
  ASSERT_TRUE(
      p_.WriteTextFile(real_marker, std::string(kScratchMarkerFirstLine) + "\npid=999999\n").ok());
  std::string linked = target_.path() + "/" + std::string(kScratchPrefix) + "5-0";
  ASSERT_TRUE(p_.MakeDirectory(linked).ok());
  ASSERT_EQ(testing_support::Symlink(real_marker, linked + "/" + std::string(kScratchMarker)), 0);
  std::string no_pid = target_.path() + "/" + std::string(kScratchPrefix) + "5-1";
  ASSERT_TRUE(p_.MakeDirectory(no_pid).ok());
  ASSERT_TRUE(p_.WriteTextFile(no_pid + "/" + std::string(kScratchMarker),
                               std::string(kScratchMarkerFirstLine) + "\n")
                  .ok());
  Result<CleanOutcome> out = CleanScratch(p_, target_.path());
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->removed.empty());
  EXPECT_EQ(out->refused.size(), 2u);
  EXPECT_EQ(p_.KindOf(linked), PathKind::kDirectory);
  EXPECT_EQ(p_.KindOf(no_pid), PathKind::kDirectory);
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

// Issue 23 point 8: cleanup went by path, so a target renamed during the run kept its scratch.
TEST_F(ScratchTest, RemoveFindsItsDirectoryAfterTheTargetWasRenamed) {
  std::string before = target_.path() + "/before";
  std::string after = target_.path() + "/after";
  ASSERT_TRUE(p_.MakeDirectory(before).ok());
  auto dir = ScratchDir::Create(p_, before);
  ASSERT_TRUE(dir.ok()) << dir.status().message();
  ASSERT_TRUE(p_.MakeDirectory((*dir)->FilePath("sub")).ok());
  ASSERT_TRUE(p_.WriteTextFile((*dir)->FilePath("sub/db"), "data").ok());
  ASSERT_TRUE(p_.Rename(before, after).ok());
  ASSERT_TRUE(p_.MakeDirectory(before).ok());  // a new directory where the old path pointed
  ASSERT_TRUE(p_.WriteTextFile(before + "/keep", "not durprobe's").ok());
  Status removed = (*dir)->Remove();
  EXPECT_TRUE(removed.ok()) << removed.message();
  Result<std::vector<std::string>> left = p_.ListDirectory(after);
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(left->empty()) << "scratch left in the renamed target";
  EXPECT_EQ(p_.KindOf(before + "/keep"), PathKind::kFile);
}

// The scratch's own name now holds another directory: that one is never removed; the scratch
// (still held open) is emptied and the error says its empty directory stays.
TEST_F(ScratchTest, RemoveNeverRemovesADirectoryPutInItsPlace) {
  auto dir = ScratchDir::Create(p_, target_.path());
  ASSERT_TRUE(dir.ok());
  std::string path = (*dir)->shown_path();
  ASSERT_TRUE(p_.WriteTextFile((*dir)->FilePath("db"), "data").ok());
  std::string moved = target_.path() + "/moved";
  ASSERT_TRUE(p_.Rename(path, moved).ok());
  ASSERT_TRUE(p_.MakeDirectory(path).ok());
  ASSERT_TRUE(p_.WriteTextFile(path + "/precious", "someone else's").ok());
  Status removed = (*dir)->Remove();
  EXPECT_FALSE(removed.ok());
  EXPECT_NE(removed.message().find("renamed or replaced"), std::string::npos) << removed.message();
  EXPECT_EQ(p_.KindOf(path + "/precious"), PathKind::kFile);
  EXPECT_EQ(p_.KindOf(moved + "/db"), PathKind::kMissing);
  EXPECT_EQ(p_.KindOf(moved + "/" + std::string(kScratchMarker)), PathKind::kMissing);
}

// clean opens each candidate without following links and removes what it checked: a marked
// scratch under a renamed parent is found by its new name; the descriptor-relative walk leaves
// the target itself and its other entries alone.
TEST_F(ScratchTest, CleanRemovesByDescriptorAndLeavesEverythingElse) {
  std::string left = target_.path() + "/" + std::string(kScratchPrefix) + "999998-0";
  ASSERT_TRUE(p_.MakeDirectory(left).ok());
  ASSERT_TRUE(p_.MakeDirectory(left + "/a").ok());
  ASSERT_TRUE(p_.MakeDirectory(left + "/a/b").ok());
  ASSERT_TRUE(p_.WriteTextFile(left + "/a/b/db-wal", "w").ok());
  ASSERT_TRUE(p_.WriteTextFile(left + "/" + std::string(kScratchMarker),
                               std::string(kScratchMarkerFirstLine) + "\npid=2147483001\n")
                  .ok());
  ASSERT_TRUE(p_.WriteTextFile(target_.path() + "/user.db", "u").ok());
  Result<CleanOutcome> out = CleanScratch(p_, target_.path());
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->removed.size(), 1u);
  EXPECT_TRUE(out->mounted.empty());
  EXPECT_EQ(p_.KindOf(left), PathKind::kMissing);
  EXPECT_EQ(p_.KindOf(target_.path() + "/user.db"), PathKind::kFile);
}

TEST_F(ScratchTest, MountInsideFindsNoneInAPlainTree) {
  auto dir = ScratchDir::Create(p_, target_.path());
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(p_.MakeDirectory((*dir)->FilePath("sub")).ok());
  Result<FileHandle> fd = p_.OpenDirectoryAt(kNoDirectory, (*dir)->shown_path(), false);
  ASSERT_TRUE(fd.ok());
  Result<EntryStat> st = p_.StatAt(fd->get(), "");
  ASSERT_TRUE(st.ok());
  EXPECT_FALSE(st->mount_root);
  Result<std::string> mount = MountInside(p_, fd->get(), st->dev, (*dir)->shown_path());
  ASSERT_TRUE(mount.ok());
  EXPECT_EQ(*mount, "");
}

}  // namespace
}  // namespace durprobe::platform
