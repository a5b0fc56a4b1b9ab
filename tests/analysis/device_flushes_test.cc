// The device flushes layer (analysis/device_flushes.h) and the verdict that reads it: a sync that
// reaches no device voids durability (unproven on remote storage), one that reaches the device
// passes, writes that flush by themselves are durable per write and silence
// sync_noop_suspected, a primitive is named on its own, and too few operations prove nothing.
#include "analysis/device_flushes.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/durability_model.h"
#include "analysis/plausibility.h"
#include "text/units.h"

namespace durprobe::analysis {
namespace device_flushes_test {

using probes::Pattern;
using probes::Primitive;

constexpr std::uint64_t kSecond = 1'000'000'000;

// ops operations over one second with `flushes` on vda, control writes flushing control_flushes.
probes::ProbeResult Probe(Primitive prim, std::uint64_t ops, std::uint64_t flushes,
                          std::uint64_t control_flushes = 0, std::uint64_t p50 = 100'000) {
  probes::ProbeResult r;
  r.spec = {prim, Pattern::kOverwrite, 4096};
  r.ops = ops;
  r.latency.count = ops;
  r.latency.p50 = r.latency.p99 = r.latency.max = p50;
  r.device_flushes = {.counted = true,
                      .how = "the device under the filesystem",
                      .devices = {{"vda", flushes, ops, control_flushes, 0}},
                      .ops = ops,
                      .ns = kSecond,
                      .control_ops = 100,
                      .control_ns = kSecond / 32,
                      .idle_ns = kSecond / 32};
  return r;
}

model::Target On(std::string fstype, std::vector<probes::ProbeResult> probes) {
  model::Target t;
  t.path = "/data";
  platform::MountInfo m;
  m.path = m.mount_point = "/data";
  m.fstype = std::move(fstype);
  t.mount = m;
  t.probes = std::move(probes);
  for (model::Finding& f : DeviceFlushFindings(t)) t.findings.push_back(f);
  return t;
}

bool HasCode(const model::Target& t, const std::string& code) {
  return std::any_of(t.findings.begin(), t.findings.end(),
                     [&](const model::Finding& f) { return f.code == code; });
}

// A count beside a background of 0.1 flush an operation or more is in its noise: 1 flush in the
// control's 1/32 s is 32 a second, 0.32 an operation of 100 over the second, 0.032 of 1,000.
TEST(DeviceFlushesTest, ACountBesideABusyBackgroundIsInItsNoise) {
  EXPECT_TRUE(FlushCountInNoise(Probe(Primitive::kFdatasync, 100, 132, 1).device_flushes));
  EXPECT_FALSE(FlushCountInNoise(Probe(Primitive::kFdatasync, 1000, 1032, 1).device_flushes));
  EXPECT_FALSE(FlushCountInNoise(Probe(Primitive::kFdatasync, 1000, 1000).device_flushes));
  probes::FlushTally unavailable{.counted = true, .unavailable = "no block device under tmpfs"};
  EXPECT_FALSE(FlushCountInNoise(unavailable));
}

TEST(DeviceFlushesTest, ASyncThatReachesNoDeviceIsNotDurable) {
  model::Target t =
      On("fuse", {Probe(Primitive::kNone, 5000, 0), Probe(Primitive::kFdatasync, 4000, 0)});
  ASSERT_TRUE(HasCode(t, "sync_reaches_no_device"));
  model::Durability d = DurabilityOf(t, {});
  EXPECT_EQ(d.verdict, model::DurabilityVerdict::kNotDurable);
  EXPECT_EQ(d.deciding_layer, model::LayerKind::kFlushes);
  EXPECT_NE(d.reason.find("fdatasync reached no device: 4,000 syncs, 0 flushes"), std::string::npos)
      << d.reason;
}

// One flush is "1 flush", in both forms of the claim: 20 syncs beside it (the quick probe's
// evidence on a FUSE server, a neighbour's journal commit among them) are 19 that surely reached
// no device; 4,000 are all of them.
TEST(DeviceFlushesTest, OneFlushIsNamedInTheSingular) {
  model::Target some = On("fuse", {Probe(Primitive::kFdatasync, 20, 1)});
  model::Durability d = DurabilityOf(some, {});
  EXPECT_EQ(d.verdict, model::DurabilityVerdict::kNotDurable);
  EXPECT_NE(d.reason.find("19 of 20 fdatasyncs reached no device (1 flush on vda,"),
            std::string::npos)
      << d.reason;
  model::Target none = On("fuse", {Probe(Primitive::kFdatasync, 4000, 1)});
  d = DurabilityOf(none, {});
  EXPECT_NE(d.reason.find("fdatasync reached no device: 4,000 syncs, 1 flush"), std::string::npos)
      << d.reason;
  EXPECT_EQ(d.reason.find("1 flushes"), std::string::npos) << d.reason;
}

// 20 dropped syncs in 405 ms beside a neighbour flushing about 45 times a second: 18 flushes.
// The slices' own control (100 writes, 4 flushes in 81 ms) cannot tell them from the syncs'
// (its 95% lower bound leaves 0.56 a sync); ten times the control (36 in 810 ms) can: none were
// the syncs'.
TEST(DeviceFlushesTest, ACountDecidesOnceItsBackgroundIsKnownWellEnough) {
  probes::FlushTally t{.counted = true,
                       .devices = {{"vda", 18, 20, 4, 0}},
                       .ops = 20,
                       .ns = 405'000'000,
                       .control_ops = 100,
                       .control_ns = 81'000'000};
  EXPECT_FALSE(FlushCountDecides(t));
  t.devices[0].control_flushes = 36;
  t.control_ns = 810'000'000;
  EXPECT_TRUE(FlushCountDecides(t));
  EXPECT_TRUE(FlushCountDecides(Probe(Primitive::kFdatasync, 400, 400).device_flushes));
  EXPECT_TRUE(FlushCountDecides(Probe(Primitive::kFdatasync, 4000, 0).device_flushes));
  // Too few operations for any verdict, or nothing counted: nothing to wait for.
  t.ops = analysis::kMinFlushEvidenceOps - 1;
  t.devices[0].control_flushes = 4;
  t.control_ns = 81'000'000;
  EXPECT_TRUE(FlushCountDecides(t));
  EXPECT_TRUE(FlushCountDecides(probes::FlushTally{.counted = true, .unavailable = "tmpfs"}));
}

TEST(DeviceFlushesTest, OnRemoteStorageNoLocalFlushProvesNothing) {
  model::Target t = On("nfs4", {Probe(Primitive::kFdatasync, 4000, 0)});
  model::Durability d = DurabilityOf(t, {});
  EXPECT_EQ(d.verdict, model::DurabilityVerdict::kUnproven);
  ASSERT_FALSE(d.layers.empty());
  EXPECT_EQ(d.layers.back().kind, model::LayerKind::kFlushes);
  EXPECT_EQ(d.layers.back().effect, model::LayerEffect::kUnknown);
  EXPECT_NE(d.layers.back().reason.find("remote"), std::string::npos) << d.layers.back().reason;
}

TEST(DeviceFlushesTest, ASyncThatReachesTheDevicePassesAndTheDeviceStillDecides) {
  model::Target t =
      On("fuse", {Probe(Primitive::kFdatasync, 400, 400), Probe(Primitive::kFsync, 300, 300)});
  EXPECT_FALSE(HasCode(t, "sync_reaches_no_device"));
  model::Durability d = DurabilityOf(t, {});
  EXPECT_NE(d.verdict, model::DurabilityVerdict::kNotDurable);
  ASSERT_FALSE(d.layers.empty());
  const model::DurabilityLayer& last = d.layers.back();
  EXPECT_EQ(last.kind, model::LayerKind::kFlushes);
  EXPECT_EQ(last.effect, model::LayerEffect::kPasses);
  EXPECT_NE(last.reason.find("fdatasync 1.00"), std::string::npos) << last.reason;
}

// Only fdatasync is broken: it is named, fsync is not.
TEST(DeviceFlushesTest, EachPrimitiveIsJudgedOnItsOwn) {
  model::Target t =
      On("ext4", {Probe(Primitive::kFsync, 300, 300), Probe(Primitive::kFdatasync, 900, 0)});
  ASSERT_TRUE(HasCode(t, "sync_reaches_no_device"));
  const model::Finding& f = t.findings.front();
  EXPECT_NE(f.message.find("fdatasync reached no device"), std::string::npos) << f.message;
  EXPECT_EQ(f.message.find("fsync reached no device"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("fsync did reach the device"), std::string::npos) << f.message;
  // The databases' syncs that rely on fdatasync are named, and not those that rely on fsync.
  EXPECT_NE(f.message.find("Lost on power loss here: fdatasync: SQLite's syncs"), std::string::npos)
      << f.message;
  EXPECT_NE(f.message.find("wal_sync_method=fdatasync"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("etcd's WAL"), std::string::npos) << f.message;
  EXPECT_EQ(f.message.find("wal_sync_method=fsync"), std::string::npos) << f.message;
}

// A neighbour's fsyncs on the same disk came in bursts: the slices average 0.8 flushes a sync, but
// a tenth of the syncs went without a single flush on any device. Those cannot have reached one.
TEST(DeviceFlushesTest, SyncsInASliceWithoutAFlushReachedNoDeviceWhateverTheAverage) {
  probes::ProbeResult bursty = Probe(Primitive::kFdatasync, 4000, 3200);
  bursty.device_flushes.silent_slices = 4;
  bursty.device_flushes.silent_ops = 400;
  model::Target t = On("fuse", {bursty});
  ASSERT_TRUE(HasCode(t, "sync_reaches_no_device"));
  const model::Finding& f = t.findings.front();
  EXPECT_NE(f.message.find("400 of the syncs went without a single flush"), std::string::npos)
      << f.message;
  EXPECT_EQ(DurabilityOf(t, {}).verdict, model::DurabilityVerdict::kNotDurable);
  // Writes that flush by themselves leave nothing for the sync to flush: no evidence then.
  probes::ProbeResult odsync = Probe(Primitive::kOdsync, 400, 0, 100);
  odsync.device_flushes.silent_ops = 400;
  EXPECT_FALSE(HasCode(On("ext4", {odsync}), "sync_reaches_no_device"));
}

TEST(DeviceFlushesTest, EveryDatabaseSyncPrimitiveNamesItsUsers) {
  for (Primitive p :
       {Primitive::kFdatasync, Primitive::kFsync, Primitive::kOdsync, Primitive::kOsync,
        Primitive::kOdirectDsync, Primitive::kOdirectSync, Primitive::kDirFsync}) {
    EXPECT_FALSE(SyncsThatUse(p).empty()) << probes::NameOf(p);
  }
  EXPECT_EQ(SyncsThatUse(Primitive::kRwfDsync), "");  // none of them by default
  EXPECT_NE(SyncsThatUse(Primitive::kOdsync).find("open_datasync"), std::string::npos);
}

// ext4 -o sync: plain writes flush (the control too), so a cheap sync is no evidence of a no-op.
TEST(DeviceFlushesTest, WritesThatFlushByThemselvesAreDurableAndNoSuspectedNoop) {
  model::Target t = On("ext4", {Probe(Primitive::kNone, 200, 200, 100, 90'000),
                                Probe(Primitive::kOdsync, 200, 200, 100, 95'000)});
  EXPECT_FALSE(HasCode(t, "sync_reaches_no_device"));
  std::vector<SyncFlushes> e = SyncFlushEvidence(t);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].reach, FlushReach::kWritesFlush);
  StorageFacts disk{.known = true, .block_backed = true};
  for (const model::Finding& f : PlausibilityFindings(t, disk)) {
    EXPECT_NE(f.code, "sync_noop_suspected") << f.message;
  }
  EXPECT_NE(DurabilityOf(t, {}).verdict, model::DurabilityVerdict::kNotDurable);
}

TEST(DeviceFlushesTest, TooFewOperationsOrNoCountsAreNoEvidence) {
  model::Target few = On("fuse", {Probe(Primitive::kFdatasync, kMinFlushEvidenceOps - 1, 0)});
  EXPECT_TRUE(SyncFlushEvidence(few).empty());
  probes::ProbeResult unavailable = Probe(Primitive::kFdatasync, 4000, 0);
  unavailable.device_flushes.unavailable = "sysfs is masked";
  unavailable.device_flushes.devices.clear();
  model::Target masked = On("fuse", {unavailable});
  EXPECT_TRUE(SyncFlushEvidence(masked).empty());
  EXPECT_NE(DurabilityOf(masked, {}).verdict, model::DurabilityVerdict::kNotDurable);
}

// Issue 55: fewer flushes than syncs beyond the counts' noise (a FUSE server honouring one sync
// in N) is partial loss: not durable, the syncs that reached no device counted, and never "reached
// no device" said of them all while the flushes that did are counted.
TEST(DeviceFlushesTest, FewerFlushesThanSyncsBeyondTheNoiseIsNotDurable) {
  for (std::uint64_t n : {3u, 8u, 10u}) {
    const std::uint64_t ops = 1600, flushes = ops / n;
    model::Target t = On("fuse", {Probe(Primitive::kFdatasync, ops, flushes)});
    ASSERT_EQ(SyncFlushEvidence(t).size(), 1u);
    EXPECT_EQ(SyncFlushEvidence(t)[0].reach, FlushReach::kSome) << "one in " << n;
    model::Durability d = DurabilityOf(t, {});
    EXPECT_EQ(d.verdict, model::DurabilityVerdict::kNotDurable) << "one in " << n;
    ASSERT_FALSE(d.layers.empty());
    EXPECT_EQ(d.layers.back().effect, model::LayerEffect::kVoids);
    const std::string said = fmt::format("{} of 1,600 fdatasyncs reached no device ({} flushes",
                                         text::CountText(ops - flushes), text::CountText(flushes));
    EXPECT_NE(d.layers.back().reason.find(said), std::string::npos) << d.layers.back().reason;
    EXPECT_EQ(d.layers.back().reason.find("fdatasync reached no device"), std::string::npos)
        << d.layers.back().reason;
    EXPECT_TRUE(HasCode(t, "sync_reaches_no_device")) << "one in " << n;
  }
}

// Nearly one flush in two, from few syncs: the bound reaches kReachesPerOp, so it cannot tell.
TEST(DeviceFlushesTest, SomeSyncsFlushingWithinTheNoiseIsUnproven) {
  model::Target t = On("ext4", {Probe(Primitive::kFdatasync, 100, 40)});
  ASSERT_GE(PerOpHigh(t.probes[0].device_flushes), kReachesPerOp);
  model::Durability d = DurabilityOf(t, {});
  EXPECT_EQ(d.verdict, model::DurabilityVerdict::kUnproven);
  ASSERT_FALSE(d.layers.empty());
  EXPECT_EQ(d.layers.back().kind, model::LayerKind::kFlushes);
  EXPECT_EQ(d.layers.back().effect, model::LayerEffect::kUnknown);
  EXPECT_NE(d.layers.back().reason.find("fdatasync 0.40"), std::string::npos)
      << d.layers.back().reason;
}

// 120 flushes for 57 syncs, but 4 flushes in the control's 31 ms read as 128 a second: once
// that rate is taken out nothing is left, yet a rate from 4 flushes may be far too high, so the
// syncs are not said to reach no device (a podman volume here).
TEST(DeviceFlushesTest, ABusyBackgroundNeverMakesASyncLookDropped) {
  probes::ProbeResult busy = Probe(Primitive::kDirFsync, 57, 120);
  busy.device_flushes.devices[0].control_flushes = 4;
  ASSERT_LT(busy.device_flushes.PerOp(), kNoFlushPerOp);
  model::Target t = On("ext4", {busy});
  EXPECT_FALSE(HasCode(t, "sync_reaches_no_device"));
  ASSERT_EQ(SyncFlushEvidence(t).size(), 1u);
  EXPECT_EQ(SyncFlushEvidence(t)[0].reach, FlushReach::kPartly);
  EXPECT_NE(DurabilityOf(t, {}).verdict, model::DurabilityVerdict::kNotDurable);
}

// 85 flushes for 100 syncs over 1 s, while the same writes without the sync flushed 4 in a
// 50 ms control: 80 expected, so per_op reads 0.05; but a control of 4 is consistent with a rate
// as low as 1.37 in 50 ms (27 over the second), which leaves 0.58 a sync. The syncs may have
// flushed: reach is "partly" and the path is not called not durable.
TEST(DeviceFlushesTest, AQuietControlsFewFlushesMayHaveBeenLowByChance) {
  probes::ProbeResult quiet = Probe(Primitive::kFdatasync, 100, 85, 4);
  quiet.device_flushes.control_ns = kSecond / 20;
  ASSERT_LT(quiet.device_flushes.PerOp(), kNoFlushPerOp);
  ASSERT_LT(quiet.device_flushes.MostWithoutSyncPerOp(), kMaxBackgroundPerOp);
  model::Target t = On("ext4", {quiet});
  EXPECT_FALSE(HasCode(t, "sync_reaches_no_device"));
  ASSERT_EQ(SyncFlushEvidence(t).size(), 1u);
  EXPECT_EQ(SyncFlushEvidence(t)[0].reach, FlushReach::kPartly);
  EXPECT_NE(DurabilityOf(t, {}).verdict, model::DurabilityVerdict::kNotDurable);
}

// 104 paced syncs in 0.7 s with 823 flushes, while the same writes without the sync saw 3,071 a
// second: the background outnumbers the flushes honest syncs would make (a check in a busy
// podman volume), so nothing is said to reach no device.
TEST(DeviceFlushesTest, ABackgroundThatOutnumbersTheSyncsHidesNothing) {
  probes::ProbeResult busy = Probe(Primitive::kFdatasync, 104, 823);
  busy.device_flushes.ns = 700'000'000;
  busy.device_flushes.control_ns = 21'000'000;
  busy.device_flushes.devices[0].control_flushes = 64;
  busy.device_flushes.devices[0].idle_flushes = 64;  // the same background with nothing running
  ASSERT_LT(busy.device_flushes.PerOp(), kNoFlushPerOp);
  model::Target t = On("ext4", {busy});
  EXPECT_FALSE(HasCode(t, "sync_reaches_no_device"));
  ASSERT_EQ(SyncFlushEvidence(t).size(), 1u);
  EXPECT_EQ(SyncFlushEvidence(t)[0].reach, FlushReach::kPartly);
  EXPECT_NE(DurabilityOf(t, {}).verdict, model::DurabilityVerdict::kNotDurable);
}

}  // namespace device_flushes_test
}  // namespace durprobe::analysis
