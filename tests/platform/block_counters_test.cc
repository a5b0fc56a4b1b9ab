// The block devices' counters (platform/block_counters.h): a stat line's write and flush fields,
// the devices that speak for a path (the disk under it, down a loop chain; every local disk for
// FUSE; none for tmpfs), and reading them from a sysfs tree made in a temporary directory.
#include "platform/block_counters.h"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/test_dirs.h"

namespace durprobe::platform {
namespace block_counters_test {

// A stat line as Linux 5.5+ writes it: 17 fields, writes the 5th, flushes the 16th.
constexpr char kStat[] =
    "  331356    19123 14516642  1200363 22519345   757827 835317724  3231412        0  1494884 "
    " 5189341   529794      188 633083928   177403  8411698   580161\n";

TEST(BlockCountersTest, ReadsTheWritesAndFlushesFields) {
  Result<BlockCount> c = ParseBlockStat("vda", kStat);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->name, "vda");
  EXPECT_EQ(c->writes, 22519345u);
  EXPECT_EQ(c->flushes, 8411698u);
}

TEST(BlockCountersTest, AKernelThatCountsNoFlushesIsAnErrorNotAZero) {
  Result<BlockCount> c = ParseBlockStat("sda", "1 2 3 4 5 6 7 8 9 10 11\n");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("11 fields"), std::string::npos) << c.status().message();
  EXPECT_FALSE(ParseBlockStat("sda", "1 2 3 4 x 6 7 8 9 10 11 12 13 14 15 16 17").ok());
  EXPECT_FALSE(ParseBlockStat("sda", "").ok());
}

class SysTree {
 public:
  SysTree() {
    for (const char* disk : {"vda", "loop0", "loop1", "zram0", "ram0"}) AddDisk(disk);
    Write("block/loop0/loop/backing_file", "/var/tmp/x.img\n");
  }
  void AddDisk(const std::string& name) {
    Mkdir("block/" + name);
    Mkdir("class/block/" + name);
    Write("class/block/" + name + "/stat", kStat);
  }
  void Mkdir(const std::string& rel) {
    std::string path = dir_.path();
    std::size_t at = 0;
    while (at != std::string::npos) {
      at = rel.find('/', at + 1);
      (void)Default().MakeDirectory(path + "/" + rel.substr(0, at));
    }
  }
  void Write(const std::string& rel, const std::string& text) {
    Mkdir(rel.substr(0, rel.rfind('/')));
    std::ofstream(dir_.path() + "/" + rel) << text;
  }
  const std::string& root() const { return dir_.path(); }

 private:
  testing_support::TempDir dir_;
};

MountInfo Mount(const std::string& fstype) {
  MountInfo m;
  m.fstype = fstype;
  m.mount_point = "/mnt/x";
  return m;
}

TEST(BlockCountersTest, TmpfsHasNoDeviceToCount) {
  SysTree sys;
  CountedDevices d = DevicesToCount(Default(), sys.root(), Mount("tmpfs"));
  EXPECT_TRUE(d.names.empty());
  EXPECT_NE(d.unavailable.find("tmpfs"), std::string::npos) << d.unavailable;
}

TEST(BlockCountersTest, ALoopDeviceCountsDownItsBackingChain) {
  SysTree sys;
  MountInfo m = Mount("ext4");
  m.device = DeviceInfo{.name = "loop0", .disk = "loop0", .kind = "loop"};
  MountInfo backing = Mount("ext4");
  backing.device = DeviceInfo{.name = "vda1", .disk = "vda", .partition = true};
  m.backing.push_back(backing);
  CountedDevices d = DevicesToCount(Default(), sys.root(), m);
  EXPECT_EQ(d.names, (std::vector<std::string>{"loop0", "vda"}));
  EXPECT_TRUE(d.unavailable.empty());
}

TEST(BlockCountersTest, FuseCountsEveryLocalDiskButRamAndUnbackedLoops) {
  SysTree sys;
  CountedDevices d = DevicesToCount(Default(), sys.root(), Mount("fuse.bindfs"));
  EXPECT_EQ(d.names, (std::vector<std::string>{"loop0", "vda"}));
  EXPECT_NE(d.how.find("FUSE"), std::string::npos) << d.how;
}

TEST(BlockCountersTest, AMaskedSysfsIsUnavailableWithItsReason) {
  CountedDevices d = DevicesToCount(Default(), "/nonexistent-sys", Mount("fuse.sshfs"));
  EXPECT_TRUE(d.names.empty());
  EXPECT_NE(d.unavailable.find("/nonexistent-sys/block"), std::string::npos) << d.unavailable;
}

TEST(BlockCountersTest, ReadsEachNamedDeviceInOrder) {
  SysTree sys;
  Result<std::vector<BlockCount>> c = ReadBlockCounts(Default(), sys.root(), {"vda", "loop0"});
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->size(), 2u);
  EXPECT_EQ((*c)[0].name, "vda");
  EXPECT_EQ((*c)[1].flushes, 8411698u);
  EXPECT_FALSE(ReadBlockCounts(Default(), sys.root(), {"vda", "sdz"}).ok());
}

}  // namespace block_counters_test
}  // namespace durprobe::platform
