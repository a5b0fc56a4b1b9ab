#include "platform/fs_kinds.h"

#include <gtest/gtest.h>

namespace durprobe::platform {
namespace {

TEST(FsKindsTest, NetworkFilesystemsAreNetworkForEveryDecision) {
  for (const char* fs : {"nfs", "nfs4", "cifs", "smb3", "ceph", "glusterfs", "fuse.sshfs", "9p"}) {
    FsKind k = KindOf(fs);
    EXPECT_TRUE(k.network) << fs;
    EXPECT_TRUE(k.served()) << fs;
    EXPECT_TRUE(k.remote()) << fs;
    EXPECT_FALSE(k.memory) << fs;
  }
}

TEST(FsKindsTest, MemoryFilesystemsAreNeitherServedNorRemote) {
  for (const char* fs : {"tmpfs", "ramfs", "devtmpfs"}) {
    FsKind k = KindOf(fs);
    EXPECT_TRUE(k.memory) << fs;
    EXPECT_FALSE(k.served()) << fs;
    EXPECT_FALSE(k.remote()) << fs;
  }
}

TEST(FsKindsTest, HostSharesAndFuseServersAreServed) {
  EXPECT_TRUE(KindOf("virtiofs").host_share);
  EXPECT_FALSE(KindOf("virtiofs").network);
  EXPECT_TRUE(KindOf("virtiofs").remote());
  EXPECT_TRUE(KindOf("9p").host_share);
  FsKind bindfs = KindOf("fuse.bindfs");  // not in the table: any fuse.* is a FUSE server
  EXPECT_TRUE(bindfs.fuse);
  EXPECT_TRUE(bindfs.served());
  EXPECT_FALSE(bindfs.remote());
  EXPECT_TRUE(KindOf("fuse.grpcfuse").host_share);
  EXPECT_TRUE(KindOf("fuse").fuse);
}

TEST(FsKindsTest, LocalDiskFilesystemsHaveNoFlags) {
  for (const char* fs : {"ext4", "xfs", "f2fs", "overlay", "", "fusefake"}) {
    FsKind k = KindOf(fs);
    EXPECT_FALSE(k.memory || k.network || k.host_share || k.fuse || k.kernel_state) << fs;
  }
  EXPECT_TRUE(KindOf("btrfs").copy_on_write);
  EXPECT_FALSE(KindOf("btrfs").served());
  EXPECT_TRUE(KindOf("cgroup2").kernel_state);
}

}  // namespace
}  // namespace durprobe::platform
