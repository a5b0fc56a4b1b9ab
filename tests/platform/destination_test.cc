// Report destinations (platform/posix_destination.cc, issue 32 items 2 and 3): a symlink is
// followed only when the running user or root owns it, whatever the directory; the final file is
// replaced by a rename onto the name reached, through a temporary file with an unpredictable name.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "platform/platform.h"
#include "tests/cli_runner.h"
#include "tests/test_dirs.h"

namespace durprobe::platform {
namespace {

using testing_support::Slurp;
using testing_support::Symlink;
using testing_support::TempDir;

Platform& P() { return Default(); }

TEST(DestinationTest, OwnSymlinksAreFollowedRelativeAndAbsolute) {
  TempDir dir;
  ASSERT_TRUE(P().MakeDirectory(dir.path() + "/sub").ok());
  ASSERT_EQ(Symlink("sub/target.json", dir.path() + "/rel.json"), 0);
  ASSERT_EQ(Symlink(dir.path() + "/sub", dir.path() + "/abs"), 0);
  Result<DestinationFile> rel = P().ResolveDestination(dir.path() + "/rel.json");
  ASSERT_TRUE(rel.ok()) << rel.status().message();
  EXPECT_EQ(rel->file, dir.path() + "/sub/target.json");
  EXPECT_TRUE(rel->through_symlink);
  EXPECT_EQ(rel->kind, PathKind::kMissing);
  ASSERT_TRUE(P().ReplaceFileAtomically(dir.path() + "/abs/../rel.json", "one").ok());
  EXPECT_EQ(Slurp(dir.path() + "/sub/target.json"), "one");
  EXPECT_EQ(P().KindOfNoFollow(dir.path() + "/rel.json"), PathKind::kSymlink);
  ASSERT_TRUE(P().ReplaceFileAtomically(dir.path() + "/abs/target.json", "two").ok());
  EXPECT_EQ(Slurp(dir.path() + "/sub/target.json"), "two");
  Result<std::vector<std::string>> left = P().ListDirectory(dir.path() + "/sub");
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(left->size(), 1u) << "a temporary file was left";
}

TEST(DestinationTest, ALoopAndADirectoryAreErrorsNotWrites) {
  TempDir dir;
  ASSERT_EQ(Symlink(dir.path() + "/b", dir.path() + "/a"), 0);
  ASSERT_EQ(Symlink(dir.path() + "/a", dir.path() + "/b"), 0);
  Status loop = P().ReplaceFileAtomically(dir.path() + "/a", "x");
  EXPECT_FALSE(loop.ok());
  EXPECT_NE(loop.message().find("many levels of symbolic links"), std::string::npos)
      << loop.message();
  EXPECT_FALSE(P().ReplaceFileAtomically(dir.path(), "x").ok());
}

// Another user's link is refused as the last name and as a directory on the way, even where
// that user could not have planted it (root chowns it here): its owner can repoint it.
TEST(DestinationTest, AnotherUsersSymlinkIsRefusedAnywhereOnThePath) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a symlink to another user";
  TempDir dir;
  std::string sentinel = dir.path() + "/sentinel";
  ASSERT_TRUE(P().WriteTextFile(sentinel, "keep").ok());
  ASSERT_EQ(Symlink(sentinel, dir.path() + "/r.json"), 0);
  ASSERT_EQ(Symlink(dir.path(), dir.path() + "/via"), 0);
  ASSERT_EQ(::lchown((dir.path() + "/r.json").c_str(), 65534, 65534), 0);
  ASSERT_EQ(::lchown((dir.path() + "/via").c_str(), 65534, 65534), 0);
  Status last = P().ReplaceFileAtomically(dir.path() + "/r.json", "forged");
  EXPECT_EQ(last.kind(), Status::Kind::kInvalidArgument);
  EXPECT_EQ(last.message().find("is a symlink owned by another user (uid 65534)"), 0u)
      << last.message();
  Status on_the_way = P().ReplaceFileAtomically(dir.path() + "/via/sentinel", "forged");
  EXPECT_NE(on_the_way.message().find(dir.path() + "/via is a symlink owned by another user"),
            std::string::npos)
      << on_the_way.message();
  EXPECT_FALSE(P().ResolveDestination(dir.path() + "/r.json").ok());
  EXPECT_EQ(Slurp(sentinel), "keep");
  EXPECT_EQ(P().KindOfNoFollow(dir.path() + "/r.json"), PathKind::kSymlink);
}

// A temporary name planted by someone who knows the pid (r.json.durprobe-tmp-PID) no longer
// stops the write: the name is random and another is drawn on EEXIST.
TEST(DestinationTest, APlantedPidTemporaryNameDoesNotStopTheWrite) {
  TempDir dir;
  std::string file = dir.path() + "/r.json";
  std::string planted = file + ".durprobe-tmp-" + std::to_string(::getpid());
  ASSERT_TRUE(P().WriteTextFile(planted, "planted").ok());
  ASSERT_TRUE(P().ReplaceFileAtomically(file, "report").ok());
  EXPECT_EQ(Slurp(file), "report");
  EXPECT_EQ(Slurp(planted), "planted");
  Result<std::vector<std::string>> names = P().ListDirectory(dir.path());
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->size(), 2u);
}

}  // namespace
}  // namespace durprobe::platform
