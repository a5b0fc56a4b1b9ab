// The CPU quota and throttling counters read from cgroup snapshots (tests/fixtures/cgroup/): a
// Kubernetes pod on cgroup v2 (a container limit under a pod limit), a cgroup namespace's view,
// a podman container on a hybrid v1 host, a host with no limit, and a cgroup beside the
// mount's root whose name begins with it.
#include "platform/cgroup_cpu.h"

#include <gtest/gtest.h>

#include "platform/platform.h"
#include "tests/fixtures.h"

namespace durprobe::platform {
namespace cgroup_cpu_test {

using testing_support::FixturePath;

CpuQuota ReadFixture(const std::string& name) {
  std::string root = FixturePath("cgroup/" + name);
  return ReadCpuQuotaAt(Default(), root + "/proc", root);
}

TEST(CgroupCpuTest, CpuMaxReadsALimitOrMax) {
  std::uint64_t quota = 1, period = 0;
  EXPECT_TRUE(ParseCpuMax("50000 100000\n", quota, period));
  EXPECT_EQ(quota, 50000u);
  EXPECT_EQ(period, 100000u);
  EXPECT_TRUE(ParseCpuMax("max 100000\n", quota, period));
  EXPECT_EQ(quota, 0u);
  EXPECT_FALSE(ParseCpuMax("", quota, period));
  EXPECT_FALSE(ParseCpuMax("50000\n", quota, period));
  EXPECT_FALSE(ParseCpuMax("50000 0\n", quota, period));
  EXPECT_FALSE(ParseCpuMax("half 100000\n", quota, period));
}

TEST(CgroupCpuTest, CpuStatReadsBothVersionsInNanoseconds) {
  Result<CpuThrottleCount> v2 =
      ParseCpuStat("usage_usec 9\nnr_periods 40\nnr_throttled 12\nthrottled_usec 310500\n");
  ASSERT_TRUE(v2.ok());
  EXPECT_EQ(*v2, (CpuThrottleCount{40, 12, 310'500'000}));
  Result<CpuThrottleCount> v1 = ParseCpuStat("nr_periods 120\nnr_throttled 37\nthrottled_time 5\n");
  ASSERT_TRUE(v1.ok());
  EXPECT_EQ(*v1, (CpuThrottleCount{120, 37, 5}));
  // A cgroup without bandwidth control has a cpu.stat without the throttling counters.
  EXPECT_FALSE(ParseCpuStat("usage_usec 9\nuser_usec 5\n").ok());
}

TEST(CgroupCpuTest, DifferenceNeverGoesBelowZero) {
  EXPECT_EQ(Difference({10, 2, 100}, {15, 5, 400}), (CpuThrottleCount{5, 3, 300}));
  EXPECT_EQ(Difference({10, 5, 400}, {1, 0, 0}), (CpuThrottleCount{}));
}

TEST(CgroupCpuTest, APodOnV2TakesTheTightestLimitAndCountsEveryLimitedLevel) {
  CpuQuota q = ReadFixture("v2_pod");
  EXPECT_EQ(q.version, "v2");
  EXPECT_EQ(q.quota_us, 50000u);  // the container's 500m, tighter than the pod's 1 CPU
  EXPECT_EQ(q.period_us, 100000u);
  EXPECT_DOUBLE_EQ(q.cpus(), 0.5);
  EXPECT_TRUE(q.cgroup.ends_with("/cri-containerd-7c41.scope")) << q.cgroup;
  ASSERT_EQ(q.stat_files.size(), 2u);  // the container and the pod; the "max" levels count none
  Result<CpuThrottleCount> t = ReadCpuThrottlingAt(Default(), q);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->throttled, 13u);
  EXPECT_EQ(t->throttled_ns, 312'500'000u);
  EXPECT_EQ(t->periods, 40u);
}

TEST(CgroupCpuTest, ACgroupNamespaceShowsTheLimitAtTheMountPoint) {
  CpuQuota q = ReadFixture("v2_namespace");
  EXPECT_EQ(q.version, "v2");
  EXPECT_EQ(q.cgroup, "/sys/fs/cgroup");
  EXPECT_DOUBLE_EQ(q.cpus(), 0.1);
  Result<CpuThrottleCount> t = ReadCpuThrottlingAt(Default(), q);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->throttled, 0u);
}

TEST(CgroupCpuTest, AHybridV1HostReadsTheCpuControllerNotTheUnifiedTree) {
  CpuQuota q = ReadFixture("v1_hybrid");
  EXPECT_EQ(q.version, "v1");
  EXPECT_EQ(q.cgroup, "/sys/fs/cgroup/cpu,cpuacct/libpod_parent/libpod-5d2a");
  EXPECT_EQ(q.quota_us, 50000u);
  EXPECT_EQ(q.period_us, 100000u);
  Result<CpuThrottleCount> t = ReadCpuThrottlingAt(Default(), q);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t, (CpuThrottleCount{120, 37, 1'843'000'000}));
}

TEST(CgroupCpuTest, NoLimitIsKnownAsNoneAndHasNoCounters) {
  CpuQuota q = ReadFixture("v1_unlimited");
  EXPECT_EQ(q.version, "v1");
  EXPECT_FALSE(q.limited());
  EXPECT_EQ(q.cpus(), 0.0);
  EXPECT_TRUE(q.stat_files.empty());
  EXPECT_EQ(ReadCpuThrottlingAt(Default(), q).status().kind(), Status::Kind::kUnsupported);
  // Nothing to read at all: said in the note, never an error.
  CpuQuota none = ReadCpuQuotaAt(Default(), FixturePath("cgroup/missing"), "");
  EXPECT_TRUE(none.version.empty());
  EXPECT_FALSE(none.note.empty());
}

TEST(CgroupCpuTest, APathOutsideTheMountsRootFallsBackToTheMountPoint) {
  std::vector<MountEntry> mounts(1);
  mounts[0].fstype = "cgroup2";
  mounts[0].root = "/user.slice";
  mounts[0].mount_point = "/sys/fs/cgroup";
  CpuCgroup c = FindCpuCgroup("0::/../../system.slice/x.service\n", mounts);
  EXPECT_EQ(c.version, "v2");
  EXPECT_EQ(c.dir, "/sys/fs/cgroup");
  c = FindCpuCgroup("0::/user.slice/app.scope\n", mounts);
  EXPECT_EQ(c.dir, "/sys/fs/cgroup/app.scope");
  EXPECT_TRUE(FindCpuCgroup("", mounts).version.empty());
}

// A cgroup whose path only begins with the mount's root (/kubepods-burstable beside the mount of
// /kubepods) is not below it: it falls back to the mount point, where the limit is read, rather
// than a directory "/sys/fs/cgroup-burstable/..." that does not exist (the limit missed).
TEST(CgroupCpuTest, APathThatOnlySharesAPrefixWithTheMountsRootIsNotBelowIt) {
  std::vector<MountEntry> mounts(1);
  mounts[0].fstype = "cgroup2";
  mounts[0].root = "/kubepods";
  mounts[0].mount_point = "/sys/fs/cgroup";
  EXPECT_EQ(FindCpuCgroup("0::/kubepods-burstable/pod1/ctr\n", mounts).dir, "/sys/fs/cgroup");
  EXPECT_EQ(FindCpuCgroup("0::/kubepods/pod1/ctr\n", mounts).dir, "/sys/fs/cgroup/pod1/ctr");
  EXPECT_EQ(FindCpuCgroup("0::/kubepods\n", mounts).dir, "/sys/fs/cgroup");

  CpuQuota q = ReadFixture("v2_prefix_sibling");
  EXPECT_EQ(q.version, "v2");
  EXPECT_EQ(q.cgroup, "/sys/fs/cgroup");
  EXPECT_EQ(q.quota_us, 20000u);
  EXPECT_DOUBLE_EQ(q.cpus(), 0.2);
  ASSERT_EQ(q.stat_files.size(), 1u);
  Result<CpuThrottleCount> t = ReadCpuThrottlingAt(Default(), q);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->throttled, 2u);
}

}  // namespace cgroup_cpu_test
}  // namespace durprobe::platform
