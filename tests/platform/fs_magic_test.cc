#include "platform/fs_magic.h"

#include <gtest/gtest.h>

namespace durprobe::platform {
namespace {

TEST(FsMagicTest, NamesKnownMagics) {
  EXPECT_EQ(FsTypeOfMagic(0xEF53), "ext4");
  EXPECT_EQ(FsTypeOfMagic(0x58465342), "xfs");
  EXPECT_EQ(FsTypeOfMagic(0x01021994), "tmpfs");
  EXPECT_EQ(FsTypeOfMagic(0x12345678), "");
}

TEST(FsMagicTest, FamiliesAgree) {
  EXPECT_EQ(MagicAgrees("ext3", 0xEF53), true);
  EXPECT_EQ(MagicAgrees("fuse.bindfs", 0x65735546), true);
  EXPECT_EQ(MagicAgrees("virtiofs", 0x65735546), true);
  EXPECT_EQ(MagicAgrees("nfs4", 0x6969), true);
  EXPECT_EQ(MagicAgrees("cifs", 0xFE534D42), true);
  EXPECT_EQ(MagicAgrees("devtmpfs", 0x01021994), true);
  EXPECT_EQ(MagicAgrees("overlay", 0x794c7630), true);
}

TEST(FsMagicTest, MismatchAndUnknown) {
  EXPECT_EQ(MagicAgrees("ext4", 0x58465342), false);
  EXPECT_EQ(MagicAgrees("overlay", 0xEF53), false);
  EXPECT_EQ(MagicAgrees("somefs", 0xEF53), std::nullopt);
  EXPECT_EQ(MagicAgrees("ext4", 0x12345678), std::nullopt);
}

}  // namespace
}  // namespace durprobe::platform
