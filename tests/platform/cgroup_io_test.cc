// The block I/O limits read from cgroup trees the test writes: v1's blkio.throttle files
// (the tightest of the cgroup and its ancestors, a device's name from sysfs), v2's io.max,
// io.latency and io.weight, and the limit a path's device picks.
#include "platform/cgroup_io.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "platform/platform.h"
#include "tests/test_dirs.h"

namespace durprobe::platform {
namespace cgroup_io_test {

void Put(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

TEST(CgroupIoTest, V2IoMaxReadsTheSetCapsAndSkipsMax) {
  std::vector<IoLimit> l;
  MergeV2IoMax(
      "254:0 rbps=max wbps=1048576 riops=max wiops=200\n8:0 rbps=max wbps=max "
      "riops=max wiops=max\n",
      "/c", l);
  ASSERT_EQ(l.size(), 1u);  // every cap of 8:0 is max: no entry
  EXPECT_EQ(l[0].device, "254:0");
  EXPECT_EQ(l[0].write_bps, 1048576u);
  EXPECT_EQ(l[0].write_iops, 200u);
  EXPECT_EQ(l[0].read_iops, 0u);
  // An ancestor's looser cap leaves the tighter one; a tighter one replaces it.
  MergeV2IoMax("254:0 wiops=500\n", "/", l);
  EXPECT_EQ(l[0].write_iops, 200u);
  EXPECT_EQ(l[0].cgroup, "/c");
  MergeV2IoMax("254:0 wiops=50\n", "/", l);
  EXPECT_EQ(l[0].write_iops, 50u);
  EXPECT_EQ(l[0].cgroup, "/");
  MergeV1Throttle("garbage\n254 7\n", &IoLimit::read_iops, "/", l);  // lines it cannot read
  EXPECT_EQ(l.size(), 1u);
}

TEST(CgroupIoTest, AV1HostTakesTheTightestLimitUpTheTreeAndNamesTheDevice) {
  testing_support::TempDir root;
  const std::string r = root.path();
  Put(r + "/proc/self/cgroup", "8:pids:/\n7:blkio:/app/db\n1:cpu:/\n0::/\n");
  Put(r + "/proc/self/mountinfo",
      "24 1 0:22 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n"
      "35 24 0:30 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n");
  const std::string blkio = r + "/sys/fs/cgroup/blkio";
  Put(blkio + "/app/db/blkio.throttle.write_iops_device", "254:0 100\n");
  Put(blkio + "/app/blkio.throttle.write_iops_device", "254:0 50\n");
  Put(blkio + "/app/blkio.throttle.read_bps_device", "8:0 1048576\n");
  Put(r + "/sys/dev/block/254:0/uevent", "MAJOR=254\nMINOR=0\nDEVNAME=vda\nDEVTYPE=disk\n");
  IoLimits l = ReadIoLimitsAt(Default(), r + "/proc", r);
  EXPECT_EQ(l.version, "v1");
  EXPECT_EQ(l.cgroup, "/sys/fs/cgroup/blkio/app/db");
  ASSERT_EQ(l.devices.size(), 2u) << l.note;
  const IoLimit& vda = l.devices[0];  // "254:0" sorts before "8:0"
  EXPECT_EQ(vda.name, "vda");
  EXPECT_EQ(vda.write_iops, 50u);
  EXPECT_EQ(vda.cgroup, "/sys/fs/cgroup/blkio/app");
  EXPECT_EQ(DescribeLimit(vda), "write 50 IOPS");
  EXPECT_EQ(l.devices[1].read_bps, 1048576u);
  EXPECT_EQ(l.devices[1].name, "");  // sysfs does not say
  DeviceInfo d;
  d.name = "vda1";
  d.disk = "vda";
  ASSERT_NE(LimitFor(l, d), nullptr);
  EXPECT_EQ(LimitFor(l, d)->write_iops, 50u);
  d.disk = d.name = "sda";
  EXPECT_EQ(LimitFor(l, d), nullptr);
}

TEST(CgroupIoTest, AV2HostReadsIoMaxLatencyAndWeight) {
  testing_support::TempDir root;
  const std::string r = root.path();
  Put(r + "/proc/self/cgroup", "0::/pod/ctr\n");
  Put(r + "/proc/self/mountinfo", "30 1 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
  const std::string cg = r + "/sys/fs/cgroup";
  Put(cg + "/pod/ctr/io.max", "254:0 rbps=max wbps=max riops=max wiops=200\n");
  Put(cg + "/pod/ctr/io.weight", "default 100\n254:0 300\n");
  Put(cg + "/pod/io.latency", "254:0 target=10000\n");
  Put(r + "/sys/dev/block/254:0/uevent", "DEVNAME=vda\n");
  IoLimits l = ReadIoLimitsAt(Default(), r + "/proc", r);
  EXPECT_EQ(l.version, "v2");
  ASSERT_EQ(l.devices.size(), 1u) << l.note;
  EXPECT_EQ(l.devices[0].write_iops, 200u);
  EXPECT_EQ(l.devices[0].latency_target_us, 10000u);
  EXPECT_EQ(l.devices[0].weight, 300u);
  EXPECT_EQ(DescribeLimit(l.devices[0]), "write 200 IOPS, latency target 10000 us, weight 300");
}

TEST(CgroupIoTest, NoControllerSaysSo) {
  testing_support::TempDir root;
  const std::string r = root.path();
  Put(r + "/proc/self/cgroup", "1:cpu:/\n");
  Put(r + "/proc/self/mountinfo", "24 1 0:22 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n");
  IoLimits l = ReadIoLimitsAt(Default(), r + "/proc", r);
  EXPECT_EQ(l.version, "");
  EXPECT_EQ(l.note, "no cgroup I/O controller is mounted here");
}

}  // namespace cgroup_io_test
}  // namespace durprobe::platform
