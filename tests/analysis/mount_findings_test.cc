#include "analysis/mount_findings.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "platform/mountinfo.h"
#include "tests/fixtures.h"

namespace durprobe::analysis {
namespace {

using platform::MountInfo;

MountInfo FromFixture(const std::string& fixture, const std::string& path) {
  Result<std::vector<platform::MountEntry>> t =
      platform::ParseMountInfo(durprobe::testing_support::ReadFixture(fixture));
  EXPECT_TRUE(t.ok());
  const platform::MountEntry* e = platform::FindMount(*t, path);
  EXPECT_NE(e, nullptr);
  return platform::DescribeMount(*t, *e, path);
}

const model::Finding* Find(const std::vector<model::Finding>& findings, const std::string& code) {
  auto it = std::find_if(findings.begin(), findings.end(),
                         [&](const model::Finding& f) { return f.code == code; });
  return it == findings.end() ? nullptr : &*it;
}

std::vector<std::string> Codes(const std::vector<model::Finding>& findings) {
  std::vector<std::string> codes;
  for (const model::Finding& f : findings) codes.push_back(f.code);
  return codes;
}

void ExpectFinding(const std::vector<model::Finding>& findings, const std::string& code,
                   Severity s) {
  const model::Finding* f = Find(findings, code);
  ASSERT_NE(f, nullptr) << "missing " << code;
  EXPECT_EQ(f->severity, s) << code;
  EXPECT_FALSE(f->message.empty());
  EXPECT_EQ(f->message.back(), '.') << "one sentence: " << f->message;
}

TEST(MountFindingsTest, PlainExt4OnAFuaDiskHasNone) {
  MountInfo m = FromFixture("mountinfo/kubernetes_pod.txt", "/data");
  m.device = platform::DeviceInfo{.name = "nvme1n1",
                                  .disk = "nvme1n1",
                                  .kind = "disk",
                                  .write_cache = "write back",
                                  .fua = true};
  EXPECT_TRUE(MountFindings(m).empty()) << ::testing::PrintToString(Codes(MountFindings(m)));
}

TEST(MountFindingsTest, MemoryFilesystemsMakeSyncANoop) {
  MountInfo m = FromFixture("mountinfo/host_misc.txt", "/dev/shm");
  ExpectFinding(MountFindings(m), "sync_noop_memory_fs", Severity::kFail);
}

// ramfs keeps everything in memory like tmpfs (and has no size limit): a sync there is a no-op.
TEST(MountFindingsTest, RamfsIsAMemoryFilesystemToo) {
  MountInfo m;
  m.fstype = "ramfs";
  m.mount_point = "/mnt/ram";
  ExpectFinding(MountFindings(m), "sync_noop_memory_fs", Severity::kFail);
}

TEST(MountFindingsTest, OverlayVolatileAndUpperOnTmpfs) {
  MountInfo m = FromFixture("mountinfo/host_misc.txt", "/mnt/ovl");
  m.overlay->upper_fstype = "tmpfs";
  std::vector<model::Finding> f = MountFindings(m);
  ExpectFinding(f, "overlay_volatile", Severity::kFail);
  ExpectFinding(f, "sync_noop_memory_fs", Severity::kFail);
}

TEST(MountFindingsTest, BarriersOffAndExt4DataModes) {
  std::vector<model::Finding> mysql =
      MountFindings(FromFixture("mountinfo/host_misc.txt", "/var/lib/mysql"));
  ExpectFinding(mysql, "barrier_disabled", Severity::kFail);
  EXPECT_NE(Find(mysql, "barrier_disabled")->message.find("nobarrier"), std::string::npos);
  ExpectFinding(mysql, "ext4_data_writeback", Severity::kWarn);
  ExpectFinding(mysql, "journal_commit_interval", Severity::kInfo);
  EXPECT_NE(Find(mysql, "journal_commit_interval")->message.find("commit=60"), std::string::npos);

  std::vector<model::Finding> pg =
      MountFindings(FromFixture("mountinfo/host_misc.txt", "/var/lib/pg"));
  ExpectFinding(pg, "barrier_disabled", Severity::kFail);
  EXPECT_NE(Find(pg, "barrier_disabled")->message.find("barrier=0"), std::string::npos);
  ExpectFinding(pg, "ext4_data_journal", Severity::kInfo);
}

TEST(MountFindingsTest, SyncAndDirsyncMounts) {
  std::vector<model::Finding> f =
      MountFindings(FromFixture("mountinfo/host_misc.txt", "/var/lib/sync"));
  ExpectFinding(f, "sync_mount", Severity::kInfo);
  ExpectFinding(f, "dirsync_mount", Severity::kInfo);
}

TEST(MountFindingsTest, ZfsSyncVisibleOrNot) {
  MountInfo m = FromFixture("mountinfo/host_misc.txt", "/tank/db");
  ExpectFinding(MountFindings(m), "zfs_sync_not_visible", Severity::kInfo);
  m.options.push_back("sync=disabled");
  std::vector<model::Finding> f = MountFindings(m);
  ExpectFinding(f, "zfs_sync_disabled", Severity::kFail);
  EXPECT_EQ(Find(f, "zfs_sync_not_visible"), nullptr);
}

TEST(MountFindingsTest, FuseOverlayfsFsyncSetting) {
  MountInfo m =
      FromFixture("mountinfo/host_misc.txt", "/var/lib/containers/storage/overlay/abc/merged");
  std::vector<model::Finding> f = MountFindings(m);
  ExpectFinding(f, "fuse_overlayfs_fsync_unknown", Severity::kInfo);
  ExpectFinding(f, "per_operation_penalty", Severity::kInfo);
  m.options.push_back("fsync=0");
  ExpectFinding(MountFindings(m), "fuse_overlayfs_fsync_disabled", Severity::kFail);
}

TEST(MountFindingsTest, NetworkFilesystems) {
  std::vector<model::Finding> nfs =
      MountFindings(FromFixture("mountinfo/nfs_client.txt", "/mnt/shared"));
  ExpectFinding(nfs, "nfs_server_async_unknown", Severity::kInfo);
  ExpectFinding(nfs, "network_fs_sqlite_locking", Severity::kWarn);
  EXPECT_EQ(Find(nfs, "per_operation_penalty"), nullptr);

  std::vector<model::Finding> cifs =
      MountFindings(FromFixture("mountinfo/nfs_client.txt", "/mnt/team share"));
  ExpectFinding(cifs, "network_fs_sqlite_locking", Severity::kWarn);
  EXPECT_EQ(Find(cifs, "nfs_server_async_unknown"), nullptr);

  std::vector<model::Finding> sshfs =
      MountFindings(FromFixture("mountinfo/host_misc.txt", "/mnt/remote"));
  ExpectFinding(sshfs, "network_fs_sqlite_locking", Severity::kWarn);
  ExpectFinding(sshfs, "per_operation_penalty", Severity::kInfo);

  std::vector<model::Finding> p9 = MountFindings(FromFixture("mountinfo/host_misc.txt", "/mnt/9p"));
  ExpectFinding(p9, "network_fs_sqlite_locking", Severity::kWarn);
  ExpectFinding(p9, "per_operation_penalty", Severity::kInfo);
}

TEST(MountFindingsTest, DockerDesktopSharesCostPerOperation) {
  ExpectFinding(MountFindings(FromFixture("mountinfo/docker_desktop_virtiofs.txt", "/data")),
                "per_operation_penalty", Severity::kInfo);
  ExpectFinding(MountFindings(FromFixture("mountinfo/docker_desktop_virtiofs.txt", "/app")),
                "per_operation_penalty", Severity::kInfo);
}

TEST(MountFindingsTest, VolatileCacheWithoutFuaButNotForLoopDevices) {
  MountInfo m = FromFixture("mountinfo/kubernetes_pod.txt", "/data");
  m.device = platform::DeviceInfo{
      .name = "vda", .disk = "vda", .kind = "disk", .write_cache = "write back", .fua = false};
  ExpectFinding(MountFindings(m), "volatile_write_cache_no_fua", Severity::kWarn);
  m.device->write_cache = "write through";
  EXPECT_EQ(Find(MountFindings(m), "volatile_write_cache_no_fua"), nullptr);
  m.device = platform::DeviceInfo{.name = "loop0",
                                  .disk = "loop0",
                                  .kind = "loop",
                                  .write_cache = "write back",
                                  .fua = false,
                                  .backing_file = "/img/a.img",
                                  .backing_fstype = "xfs"};
  std::vector<model::Finding> f = MountFindings(m);
  EXPECT_EQ(Find(f, "volatile_write_cache_no_fua"), nullptr);
  ExpectFinding(f, "loop_device", Severity::kInfo);
  EXPECT_NE(Find(f, "loop_device")->message.find("/img/a.img on xfs"), std::string::npos);
}

TEST(MountFindingsTest, StatfsMismatchAndReadOnly) {
  MountInfo m = FromFixture("mountinfo/docker_desktop_virtiofs.txt", "/sys");
  m.statfs_agrees = false;
  m.statfs_type = "xfs";
  std::vector<model::Finding> f = MountFindings(m);
  ExpectFinding(f, "statfs_mismatch", Severity::kInfo);
  ExpectFinding(f, "read_only_mount", Severity::kInfo);
}

TEST(StorageFactsTest, FromTheDeviceOrItsAbsence) {
  MountInfo disk = FromFixture("mountinfo/kubernetes_pod.txt", "/data");
  EXPECT_FALSE(StorageFactsOf(disk).known) << "device not resolved";
  disk.device = platform::DeviceInfo{
      .name = "sda", .kind = "disk", .rotational = true, .write_cache = "write back", .fua = false};
  StorageFacts f = StorageFactsOf(disk);
  EXPECT_TRUE(f.known);
  EXPECT_TRUE(f.block_backed);
  EXPECT_TRUE(f.rotational);
  EXPECT_TRUE(f.volatile_cache);
  EXPECT_FALSE(f.fua);

  disk.device->kind = "loop";
  EXPECT_FALSE(StorageFactsOf(disk).known);

  StorageFacts shm = StorageFactsOf(FromFixture("mountinfo/host_misc.txt", "/dev/shm"));
  EXPECT_TRUE(shm.known);
  EXPECT_FALSE(shm.block_backed);
  EXPECT_FALSE(StorageFactsOf(FromFixture("mountinfo/kubernetes_pod.txt", "/")).known)
      << "an overlay whose upper layer is not visible";
}

TEST(EnvironmentFindingsTest, LdPreloadNamedAndEatmydataFails) {
  model::Context c;
  EXPECT_TRUE(EnvironmentFindings(c).empty());
  c.ld_preload = "/usr/lib/libjemalloc.so.2";
  std::vector<model::Finding> f = EnvironmentFindings(c);
  ExpectFinding(f, "ld_preload_set", Severity::kWarn);
  EXPECT_NE(f[0].message.find("libjemalloc"), std::string::npos);
  c.ld_preload = "/usr/lib/x86_64-linux-gnu/libeatmydata.so";
  ExpectFinding(EnvironmentFindings(c), "ld_preload_eatmydata", Severity::kFail);
}

}  // namespace
}  // namespace durprobe::analysis
