// FileHandle owns a descriptor: closed once, through the Platform that opened it, when the handle
// goes; moves and release hand ownership on; an explicit Close reports close's error.
#include "platform/file_handle.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <utility>

#include "platform/platform.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::platform {
namespace {

class FileHandleTest : public ::testing::Test {
 protected:
  FileHandle OpenFile(const std::string& name) {
    Result<FileHandle> file = fault_.Open(dir_.path() + "/" + name, OpenFlags{.create = true});
    EXPECT_TRUE(file.ok()) << file.status().message();
    return file.ok() ? std::move(*file) : FileHandle();
  }
  // Whether fd is still an open descriptor of this process.
  bool IsOpen(int fd) { return fault_.PWrite(fd, "x", 1, 0).error_number() != EBADF; }

  testing_support::TempDir dir_;
  FaultPlatform fault_{Default()};
};

TEST_F(FileHandleTest, ClosesItsDescriptorWhenDestroyed) {
  int fd = -1;
  {
    FileHandle file = OpenFile("a");
    fd = file.get();
    ASSERT_GE(fd, 0);
    EXPECT_TRUE(IsOpen(fd));
    EXPECT_EQ(fault_.close_calls(), 0);
  }
  EXPECT_EQ(fault_.close_calls(), 1);  // through the wrapper that opened it
  EXPECT_FALSE(IsOpen(fd));
}

TEST_F(FileHandleTest, MoveConstructionTransfersOwnership) {
  FileHandle from = OpenFile("a");
  const int fd = from.get();
  FileHandle to(std::move(from));
  EXPECT_FALSE(from.valid());  // NOLINT(bugprone-use-after-move): the moved-from state is the test
  EXPECT_EQ(from.get(), -1);
  EXPECT_EQ(to.get(), fd);
  EXPECT_TRUE(IsOpen(fd));
  EXPECT_EQ(fault_.close_calls(), 0);
}

TEST_F(FileHandleTest, MoveAssignmentClosesTheOldDescriptorAndTakesTheNew) {
  FileHandle first = OpenFile("a");
  FileHandle second = OpenFile("b");
  const int old_fd = second.get();
  const int fd = first.get();
  second = std::move(first);
  EXPECT_EQ(fault_.close_calls(), 1);
  EXPECT_FALSE(IsOpen(old_fd));
  EXPECT_EQ(second.get(), fd);
  EXPECT_FALSE(first.valid());  // NOLINT(bugprone-use-after-move)
  EXPECT_TRUE(IsOpen(fd));
}

TEST_F(FileHandleTest, ReleaseGivesTheDescriptorUpWithoutClosingIt) {
  int fd = -1;
  {
    FileHandle file = OpenFile("a");
    fd = file.release();
    EXPECT_FALSE(file.valid());
  }
  EXPECT_EQ(fault_.close_calls(), 0);
  EXPECT_TRUE(IsOpen(fd));
  EXPECT_TRUE(fault_.Close(fd).ok());
}

TEST_F(FileHandleTest, CloseReportsTheErrorOnceAndLeavesTheHandleEmpty) {
  FileHandle file = OpenFile("a");
  const int fd = file.get();
  fault_.FailCloses(EIO);
  Status closed = file.Close();
  EXPECT_FALSE(closed.ok());
  EXPECT_EQ(closed.error_number(), EIO);
  EXPECT_FALSE(file.valid());
  EXPECT_FALSE(IsOpen(fd));        // close(2) released it all the same
  EXPECT_TRUE(file.Close().ok());  // nothing left to close
  EXPECT_EQ(fault_.close_calls(), 1);
}

TEST_F(FileHandleTest, AnEmptyHandleClosesNothing) {
  FileHandle empty;
  EXPECT_FALSE(empty.valid());
  EXPECT_EQ(empty.get(), -1);
  EXPECT_TRUE(empty.Close().ok());
  EXPECT_EQ(empty.release(), -1);
}

TEST_F(FileHandleTest, OpenFailureHandsOutNoHandle) {
  fault_.FailOpens(EACCES);
  Result<FileHandle> file = fault_.Open(dir_.path() + "/a", OpenFlags{.create = true});
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().error_number(), EACCES);
  EXPECT_EQ(fault_.close_calls(), 0);
}

// Linux reports a descriptor's open flags in /proc/self/fdinfo; O_CLOEXEC is 02000000 there.
bool CloseOnExec(Platform& p, int fd) {
  Result<std::string> info = p.ReadTextFile("/proc/self/fdinfo/" + std::to_string(fd), 4096);
  if (!info.ok()) return false;
  std::size_t at = info->find("flags:");
  if (at == std::string::npos) return false;
  unsigned long flags = std::strtoul(info->c_str() + at + 6, nullptr, 8);
  return (flags & 02000000ul) != 0;
}

TEST_F(FileHandleTest, FilesAndPipesAreCloseOnExec) {
  if (Default().KindOf("/proc/self/fdinfo") != PathKind::kDirectory) {
    GTEST_SKIP() << "no /proc/self/fdinfo to read descriptor flags from (not Linux)";
  }
  FileHandle file = OpenFile("a");
  EXPECT_TRUE(CloseOnExec(fault_, file.get()));
  Result<Pipe> pipe = fault_.MakePipe();
  ASSERT_TRUE(pipe.ok()) << pipe.status().message();
  EXPECT_TRUE(CloseOnExec(fault_, pipe->read.get()));
  EXPECT_TRUE(CloseOnExec(fault_, pipe->write.get()));
}

}  // namespace
}  // namespace durprobe::platform
