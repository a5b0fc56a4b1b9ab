#include "platform/sysfs_block.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace durprobe::platform {
namespace {

Result<DeviceInfo> Fixture(unsigned major, unsigned minor) {
  return DescribeBlockDevice(Default(), durprobe::testing_support::FixturePath("sysfs"), major,
                             minor);
}

TEST(SysfsBlockTest, PartitionTakesQueueAttributesFromItsDisk) {
  Result<DeviceInfo> d = Fixture(259, 1);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->name, "nvme0n1p1");
  EXPECT_EQ(d->disk, "nvme0n1");
  EXPECT_TRUE(d->partition);
  EXPECT_EQ(d->kind, "partition");
  EXPECT_EQ(d->rotational, false);
  EXPECT_EQ(d->write_cache, "write back");
  EXPECT_EQ(d->fua, true);
  EXPECT_EQ(d->logical_block_size, 512u);
  EXPECT_EQ(d->physical_block_size, 4096u);
  EXPECT_EQ(d->scheduler, "none");
  EXPECT_EQ(d->model, "Samsung SSD 980 PRO 1TB");
  EXPECT_EQ(d->serial, "S5GXNF0R123456") << "NVMe keeps it under device/, padded";
  EXPECT_EQ(d->major, 259u);
  EXPECT_EQ(d->minor, 1u);
}

TEST(SysfsBlockTest, WholeDiskWithWriteThroughCache) {
  Result<DeviceInfo> d = Fixture(254, 0);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->name, "vda");
  EXPECT_EQ(d->disk, "vda");
  EXPECT_FALSE(d->partition);
  EXPECT_EQ(d->kind, "disk");
  EXPECT_EQ(d->rotational, true);
  EXPECT_EQ(d->write_cache, "write through");
  EXPECT_EQ(d->fua, false);
  EXPECT_EQ(d->scheduler, "mq-deadline");
  EXPECT_EQ(d->model, "");
  EXPECT_EQ(d->serial, "vd-serial-1") << "virtio-blk keeps it beside the disk";
}

TEST(SysfsBlockTest, LoopDeviceNamesItsBackingFile) {
  Result<DeviceInfo> d = Fixture(7, 3);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->name, "loop3");
  EXPECT_EQ(d->kind, "loop");
  EXPECT_EQ(d->backing_file, "/var/lib/images/disk.img");
}

TEST(SysfsBlockTest, DeviceMapperOverMdOverPartitions) {
  Result<DeviceInfo> d = Fixture(253, 0);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->kind, "dm");
  EXPECT_EQ(d->dm_name, "vg0-data");
  ASSERT_EQ(d->slaves.size(), 1u);
  const DeviceInfo& md = d->slaves[0];
  EXPECT_EQ(md.name, "md0");
  EXPECT_EQ(md.kind, "md");
  EXPECT_EQ(md.md_level, "raid1");
  ASSERT_EQ(md.slaves.size(), 2u);
  EXPECT_EQ(md.slaves[0].name, "sda1");
  EXPECT_EQ(md.slaves[0].disk, "sda");
  EXPECT_EQ(md.slaves[0].rotational, true);
  EXPECT_EQ(md.slaves[0].fua, false);
  EXPECT_EQ(md.slaves[1].name, "sdb1");
  EXPECT_EQ(md.slaves[1].model, "WDC WD40EFRX-68N");
}

TEST(SysfsBlockTest, UnknownDeviceIsAnError) {
  Result<DeviceInfo> d = Fixture(99, 9);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("99:9"), std::string::npos);
}

// Podman and Docker mask /sys/dev/block: the device is found through class/block's dev files,
// so the write cache and FUA are still known inside a container.
TEST(SysfsBlockTest, WithoutDevBlockTheDeviceIsFoundThroughClassBlock) {
  std::string how;
  Result<DeviceInfo> d = DescribeBlockDevice(
      Default(), durprobe::testing_support::FixturePath("sysfs_masked"), 259, 1, &how);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->name, "nvme0n1p1");
  EXPECT_EQ(d->disk, "nvme0n1");
  EXPECT_EQ(d->write_cache, "write back");
  EXPECT_EQ(d->fua, true);
  EXPECT_NE(how.find("class/block/nvme0n1p1"), std::string::npos) << how;
  EXPECT_NE(how.find("masks it"), std::string::npos) << how;
  Result<DeviceInfo> vda = DescribeBlockDevice(
      Default(), durprobe::testing_support::FixturePath("sysfs_masked"), 254, 0, &how);
  ASSERT_TRUE(vda.ok()) << vda.status().message();
  EXPECT_EQ(vda->write_cache, "write through");
}

TEST(SysfsBlockTest, ADeviceInNeitherPlaceIsAnErrorNamingBoth) {
  Result<DeviceInfo> d =
      DescribeBlockDevice(Default(), durprobe::testing_support::FixturePath("sysfs_masked"), 9, 9);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("9:9"), std::string::npos);
  EXPECT_NE(d.status().message().find("class/block"), std::string::npos);
}

}  // namespace
}  // namespace durprobe::platform
