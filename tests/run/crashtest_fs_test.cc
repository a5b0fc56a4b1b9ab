// The filesystem crashtest makes: the one --fs names, else the path's own with the ext4 options
// that change what reaches the disk; a path on another filesystem is refused, naming it.
#include <gtest/gtest.h>

#include "run/crashtest.h"

namespace durprobe::run {
namespace crashtest_fs_test {

model::Target On(std::string fstype, std::vector<std::string> options) {
  model::Target t;
  t.path = "/data";
  platform::MountInfo m;
  m.fstype = std::move(fstype);
  m.options = std::move(options);
  t.mount = m;
  return t;
}

TEST(CrashtestFsTest, ThePathsExt4KeepsTheOptionsThatReachTheDisk) {
  Result<platform::FsSpec> fs = CrashtestFsFor(
      {}, On("ext4", {"rw", "relatime", "data=journal", "nobarrier", "errors=remount-ro"}));
  ASSERT_TRUE(fs.ok()) << fs.status().message();
  EXPECT_EQ(fs->type, "ext4");
  EXPECT_EQ(fs->options, "data=journal,nobarrier");
  Result<platform::FsSpec> xfs = CrashtestFsFor({}, On("xfs", {"rw", "inode64"}));
  ASSERT_TRUE(xfs.ok());
  EXPECT_EQ(xfs->options, "");
}

TEST(CrashtestFsTest, AnotherFilesystemIsRefusedUnlessFsNamesOne) {
  Result<platform::FsSpec> tmpfs = CrashtestFsFor({}, On("tmpfs", {"rw"}));
  ASSERT_FALSE(tmpfs.ok());
  EXPECT_NE(tmpfs.status().message().find("/data is on tmpfs"), std::string::npos)
      << tmpfs.status().message();
  EXPECT_NE(tmpfs.status().message().find("--fs"), std::string::npos);
  sqlite_bench::CrashtestOptions named;
  named.fs = {"btrfs", ""};
  Result<platform::FsSpec> fs = CrashtestFsFor(named, On("tmpfs", {"rw"}));
  ASSERT_TRUE(fs.ok());
  EXPECT_EQ(fs->type, "btrfs");
}

}  // namespace crashtest_fs_test
}  // namespace durprobe::run
