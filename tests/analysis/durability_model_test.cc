// One verdict per path from every layer beneath it: one test per layer rule, on plain fixtures.
#include "analysis/durability_model.h"

#include <gtest/gtest.h>

namespace durprobe::analysis {
namespace {

using platform::DeviceInfo;
using platform::MountInfo;

DeviceInfo Disk(std::string write_cache, std::optional<bool> fua) {
  DeviceInfo d;
  d.name = d.disk = "vda";
  d.kind = "disk";
  d.write_cache = std::move(write_cache);
  d.fua = fua;
  return d;
}

MountInfo Fs(std::string fstype, std::optional<DeviceInfo> device = std::nullopt) {
  MountInfo m;
  m.path = "/data/x";
  m.mount_point = "/data";
  m.fstype = std::move(fstype);
  m.source = "/dev/vda";
  m.device = std::move(device);
  return m;
}

model::Durability Of(MountInfo m, model::Context c = {},
                     std::vector<model::Finding> findings = {}) {
  Target t;
  t.path = m.path;
  t.mount = std::move(m);
  t.findings = std::move(findings);
  return DurabilityOf(t, c);
}

TEST(DurabilityModelTest, ADiskWithAWriteThroughCacheIsDurable) {
  model::Durability d = Of(Fs("ext4", Disk("write through", false)));
  EXPECT_EQ(d.verdict, model::DurabilityVerdict::kDurable);
  EXPECT_FALSE(d.deciding_layer.has_value());
  ASSERT_EQ(d.layers.size(), 2u);
  EXPECT_EQ(d.layers[0].kind, model::LayerKind::kFilesystem);
  EXPECT_EQ(d.layers[1].kind, model::LayerKind::kDevice);
  EXPECT_EQ(d.layers[1].effect, model::LayerEffect::kPasses);
  EXPECT_EQ(Of(Fs("xfs", Disk("write back", true))).verdict, model::DurabilityVerdict::kDurable);
}

// The root ext4 here: a virtual disk with a volatile cache and no FUA. Durable as far as can be
// seen, so never not_durable; unproven, with what would prove it.
TEST(DurabilityModelTest, AVolatileCacheWithoutFuaIsUnprovenNeverNotDurable) {
  model::Durability d = Of(Fs("ext4", Disk("write back", false)));
  EXPECT_EQ(d.verdict, model::DurabilityVerdict::kUnproven);
  EXPECT_EQ(d.deciding_layer, model::LayerKind::kDevice);
  EXPECT_NE(d.to_prove.find("power-cut test"), std::string::npos) << d.to_prove;
  EXPECT_EQ(d.findings, std::vector<std::string>{"volatile_write_cache_no_fua"});
}

TEST(DurabilityModelTest, MemoryFilesystemsVoidIt) {
  for (const char* fs : {"tmpfs", "ramfs"}) {
    model::Durability d = Of(Fs(fs));
    EXPECT_EQ(d.verdict, model::DurabilityVerdict::kNotDurable) << fs;
    EXPECT_EQ(d.deciding_layer, model::LayerKind::kFilesystem);
    EXPECT_EQ(d.findings, std::vector<std::string>{"sync_noop_memory_fs"});
    EXPECT_TRUE(d.to_prove.empty());
  }
}

TEST(DurabilityModelTest, ALoopDeviceIsFollowedToItsBackingFilesFilesystem) {
  DeviceInfo loop;
  loop.name = loop.disk = "loop0";
  loop.kind = "loop";
  loop.backing_file = "/dev/shm/disk.img";
  MountInfo m = Fs("ext4", loop);
  m.backing.push_back(Fs("tmpfs"));
  model::Durability d = Of(m);
  EXPECT_EQ(d.verdict, model::DurabilityVerdict::kNotDurable);
  EXPECT_EQ(d.deciding_layer, model::LayerKind::kFilesystem);
  ASSERT_EQ(d.layers.size(), 3u);
  EXPECT_EQ(d.layers[0].effect, model::LayerEffect::kPasses);  // ext4 on the loop device
  EXPECT_EQ(d.layers[1].kind, model::LayerKind::kLoop);
  EXPECT_EQ(d.layers[2].name, "tmpfs (/data)");
  // Two loops deep, down to a durable disk.
  MountInfo inner = Fs("xfs", loop);
  inner.backing.push_back(Fs("ext4", Disk("write through", false)));
  MountInfo outer = Fs("ext4", loop);
  outer.backing.push_back(inner);
  EXPECT_EQ(Of(outer).verdict, model::DurabilityVerdict::kDurable);
  // A backing file that cannot be followed is unknown, not durable.
  EXPECT_EQ(Of(Fs("ext4", loop)).verdict, model::DurabilityVerdict::kUnproven);
  EXPECT_EQ(Of(Fs("ext4", loop)).deciding_layer, model::LayerKind::kLoop);
}

TEST(DurabilityModelTest, OverlayVolatileUpperOnMemoryAndAnInvisibleUpper) {
  MountInfo m = Fs("overlay", Disk("write through", false));
  m.overlay = platform::OverlayInfo{};
  m.overlay->upper_dir = "/u";
  m.overlay->upper_visible = true;
  m.overlay->upper_fstype = "ext4";
  m.overlay->upper_mount_point = "/";
  EXPECT_EQ(Of(m).verdict, model::DurabilityVerdict::kDurable);
  m.overlay->volatile_mount = true;
  EXPECT_EQ(Of(m).verdict, model::DurabilityVerdict::kNotDurable);
  EXPECT_EQ(Of(m).deciding_layer, model::LayerKind::kOverlay);
  EXPECT_EQ(Of(m).findings, std::vector<std::string>{"overlay_volatile"});
  m.overlay->volatile_mount = false;
  m.overlay->upper_fstype = "tmpfs";
  EXPECT_EQ(Of(m).verdict, model::DurabilityVerdict::kNotDurable);
  EXPECT_EQ(Of(m).deciding_layer, model::LayerKind::kFilesystem);
  m.overlay->upper_visible = false;
  m.device.reset();
  EXPECT_EQ(Of(m).verdict, model::DurabilityVerdict::kUnproven);
  EXPECT_EQ(Of(m).deciding_layer, model::LayerKind::kOverlay);
}

TEST(DurabilityModelTest, ServersAndFuseCannotBeSeenThrough) {
  for (const char* fs :
       {"nfs4", "cifs", "9p", "virtiofs", "fuse.sshfs", "fuse.bindfs", "ceph", "glusterfs"}) {
    model::Durability d = Of(Fs(fs));
    EXPECT_EQ(d.verdict, model::DurabilityVerdict::kUnproven) << fs;
    EXPECT_FALSE(d.to_prove.empty()) << fs;
  }
  // ceph is a network filesystem in the verdict as when causes are ranked (one table).
  EXPECT_EQ(Of(Fs("ceph")).deciding_layer, model::LayerKind::kNetwork);
  MountInfo off = Fs("fuse.fuse-overlayfs");
  off.options = {"rw", "fsync=0"};
  EXPECT_EQ(Of(off).verdict, model::DurabilityVerdict::kNotDurable);
}

TEST(DurabilityModelTest, BarriersOffAndZfsSyncDisabledVoidIt) {
  MountInfo m = Fs("ext4", Disk("write through", false));
  m.options = {"rw", "barrier=0"};
  EXPECT_EQ(Of(m).findings, std::vector<std::string>{"barrier_disabled"});
  m.options = {"rw", "nobarrier"};
  EXPECT_EQ(Of(m).verdict, model::DurabilityVerdict::kNotDurable);
  MountInfo zfs = Fs("zfs");
  zfs.options = {"rw", "sync=disabled"};
  EXPECT_EQ(Of(zfs).findings, std::vector<std::string>{"zfs_sync_disabled"});
}

TEST(DurabilityModelTest, APreloadIsTheTopLayer) {
  MountInfo m = Fs("ext4", Disk("write through", false));
  model::Context eat;
  eat.ld_preload = "/usr/lib/x86_64-linux-gnu/libeatmydata.so";
  EXPECT_EQ(Of(m, eat).verdict, model::DurabilityVerdict::kNotDurable);
  EXPECT_EQ(Of(m, eat).deciding_layer, model::LayerKind::kPreload);
  model::Context other;
  other.ld_preload = "/tmp/libquiet.so";
  EXPECT_EQ(Of(m, other).verdict, model::DurabilityVerdict::kUnproven);
  EXPECT_EQ(Of(m, other).deciding_layer, model::LayerKind::kPreload);
  // The same library under a neutral name is caught by what a sync costs.
  model::Durability measured =
      Of(m, other, {{Severity::kWarn, "sync_noop_suspected", "syncs cost no more than a write"}});
  EXPECT_EQ(measured.verdict, model::DurabilityVerdict::kNotDurable);
  EXPECT_EQ(measured.deciding_layer, model::LayerKind::kMeasured);
  EXPECT_EQ(measured.findings, std::vector<std::string>{"sync_noop_suspected"});
}

TEST(DurabilityModelTest, MeasuredEvidenceQualifiesADurableLookingPath) {
  MountInfo m = Fs("ext4", Disk("write through", false));
  EXPECT_EQ(Of(m, {}, {{Severity::kWarn, "sync_faster_than_device", "."}}).verdict,
            model::DurabilityVerdict::kUnproven);
  // Expected on a memory filesystem (info), it adds nothing there.
  model::Durability tmpfs = Of(Fs("tmpfs"), {}, {{Severity::kInfo, "sync_noop_suspected", "."}});
  EXPECT_EQ(tmpfs.deciding_layer, model::LayerKind::kFilesystem);
  Target t;
  t.mount = m;
  probes::ProbeResult dir;
  dir.spec.primitive = probes::Primitive::kDirFsync;
  dir.outcome = probes::Outcome::kOk;
  dir.ops = 100;
  dir.latency.p50 = 900;
  t.probes.push_back(dir);
  model::Durability d = DurabilityOf(t, {});
  EXPECT_EQ(d.verdict, model::DurabilityVerdict::kUnproven);
  EXPECT_EQ(d.deciding_layer, model::LayerKind::kMeasured);
}

TEST(DurabilityModelTest, NoMountMeansUnproven) {
  Target t;
  t.path = "/x";
  model::Durability d = DurabilityOf(t, {});
  EXPECT_EQ(d.verdict, model::DurabilityVerdict::kUnproven);
  EXPECT_FALSE(d.reason.empty());
}

sqlite_bench::CrashtestResult CrashTested(sqlite_bench::JournalMode journal,
                                          sqlite_bench::Synchronous sync, std::uint64_t lost,
                                          std::uint64_t lost_max) {
  sqlite_bench::CrashtestResult r;
  r.config = {journal, sync, 1};
  r.paths_own_fs = true;
  r.device = "honest";
  r.fs = "ext4";
  r.fs_options = "data=ordered";
  r.states = 200;
  r.lost_states = lost;
  r.lost_max = lost_max;
  return r;
}

// A crashtest of the path's own filesystem is evidence about the filesystem's recovery, never
// about the real device: it passes without turning an unknown device into a durable one, and
// a setting that lost more than SQLite documents voids the path.
TEST(DurabilityModelTest, CrashStatesOfThePathsFilesystemPassOrVoidIt) {
  using sqlite_bench::JournalMode;
  using sqlite_bench::Synchronous;
  Target t;
  t.path = "/data/x";
  t.mount = Fs("ext4", Disk("write back", false));
  t.crashtest = {CrashTested(JournalMode::kWal, Synchronous::kFull, 0, 0),
                 CrashTested(JournalMode::kDelete, Synchronous::kFull, 23, 1),
                 CrashTested(JournalMode::kDelete, Synchronous::kOff, 150, 30)};
  model::Durability d = DurabilityOf(t, {});
  EXPECT_EQ(d.verdict, model::DurabilityVerdict::kUnproven) << d.reason;
  EXPECT_EQ(d.deciding_layer, model::LayerKind::kDevice);
  ASSERT_FALSE(d.layers.empty());
  EXPECT_EQ(d.layers.back().kind, model::LayerKind::kCrashTest);
  EXPECT_EQ(d.layers.back().effect, model::LayerEffect::kPasses);
  EXPECT_NE(d.layers.back().reason.find("crash-tested: 600 states"), std::string::npos)
      << d.layers.back().reason;
  EXPECT_NE(d.layers.back().name.find("ext4 -o data=ordered"), std::string::npos);

  t.crashtest[0] = CrashTested(JournalMode::kWal, Synchronous::kFull, 12, 3);
  d = DurabilityOf(t, {});
  EXPECT_EQ(d.verdict, model::DurabilityVerdict::kNotDurable);
  EXPECT_EQ(d.deciding_layer, model::LayerKind::kCrashTest);
  EXPECT_NE(d.reason.find("WAL/FULL lost commits in 12 of 200 states"), std::string::npos)
      << d.reason;

  t.crashtest[0].paths_own_fs = false;  // another filesystem (--fs): not this path's evidence
  t.crashtest[1].paths_own_fs = false;
  t.crashtest[2].paths_own_fs = false;
  d = DurabilityOf(t, {});
  EXPECT_NE(d.layers.back().kind, model::LayerKind::kCrashTest);
}

}  // namespace
}  // namespace durprobe::analysis
