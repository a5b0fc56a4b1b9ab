#include "analysis/plausibility.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "probes/primitive_ops.h"

namespace durprobe::analysis {
namespace {

using probes::Pattern;
using probes::Primitive;

probes::ProbeResult Probe(Primitive prim, std::uint64_t p50, std::uint64_t p99 = 0,
                          std::uint64_t max = 0) {
  probes::ProbeResult r;
  r.spec = {prim, Pattern::kOverwrite, 4096};
  r.ops = 1000;
  r.latency.count = r.ops;
  r.latency.p50 = p50;
  r.latency.p99 = p99 ? p99 : p50;
  r.latency.max = max ? max : r.latency.p99;
  return r;
}

bool Has(const std::vector<model::Finding>& f, const std::string& code, Severity sev) {
  return std::any_of(f.begin(), f.end(),
                     [&](const model::Finding& x) { return x.code == code && x.severity == sev; });
}

TEST(PlausibilityTest, SyncNoDearerThanAWriteIsSuspect) {
  Target t;
  t.probes = {Probe(Primitive::kNone, 800), Probe(Primitive::kFdatasync, 1100)};
  StorageFacts disk{.known = true, .block_backed = true};
  auto f = PlausibilityFindings(t, disk);
  ASSERT_TRUE(Has(f, "sync_noop_suspected", Severity::kWarn));
  EXPECT_NE(f[0].message.find("1.10 us"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("800 ns"), std::string::npos) << f[0].message;
  // On tmpfs the same figures are expected: info, not a warning.
  StorageFacts tmpfs{.known = true, .block_backed = false};
  EXPECT_TRUE(Has(PlausibilityFindings(t, tmpfs), "sync_noop_suspected", Severity::kInfo));
}

// Which syncs are held to the plain write is the primitive row's `durable` (primitive_ops.cc):
// the modern paths (issue 36: rwf_dsync and io_uring were once left out) are, and
// sync_file_range and barrier_fsync, which do not promise stable storage, are not.
TEST(PlausibilityTest, EveryDurablePrimitiveAndOnlyThoseIsHeldToThePlainWrite) {
  StorageFacts disk{.known = true, .block_backed = true};
  for (const probes::PrimitiveOps& row : probes::PrimitiveTable()) {
    if (row.primitive == Primitive::kNone || row.syncs_directory) continue;
    Target t;
    t.probes = {Probe(Primitive::kNone, 800), Probe(row.primitive, 1100)};
    EXPECT_EQ(Has(PlausibilityFindings(t, disk), "sync_noop_suspected", Severity::kWarn),
              row.durable)
        << row.name;
  }
  for (Primitive p : {Primitive::kRwfDsync, Primitive::kIoUringFsync, Primitive::kIoUringFdatasync,
                      Primitive::kOdirectDsync}) {
    EXPECT_TRUE(probes::OpsOf(p).durable) << probes::NameOf(p);
  }
  EXPECT_FALSE(probes::OpsOf(Primitive::kSyncFileRange).durable);
  EXPECT_FALSE(probes::OpsOf(Primitive::kBarrierFsync).durable);
}

TEST(PlausibilityTest, RealFlushIsNotSuspect) {
  Target t;
  t.probes = {Probe(Primitive::kNone, 800), Probe(Primitive::kFdatasync, 250'000)};
  EXPECT_TRUE(PlausibilityFindings(t, StorageFacts{}).empty());
}

TEST(PlausibilityTest, HeavyTailAndOutlier) {
  Target t;
  t.probes = {Probe(Primitive::kFsync, 100'000, 1'500'000, 50'000'000)};
  auto f = PlausibilityFindings(t, StorageFacts{});
  EXPECT_TRUE(Has(f, "sync_tail_heavy", Severity::kWarn));
  EXPECT_TRUE(Has(f, "sync_max_outlier", Severity::kInfo));
}

TEST(PlausibilityTest, ATailFromTooFewOperationsIsNotCalledHeavy) {
  Target t;
  t.probes = {Probe(Primitive::kFsync, 100'000, 1'500'000, 1'500'000)};
  t.probes[0].ops = 60;
  t.probes[0].latency.count = 60;  // its "p99" is the slowest of 60
  EXPECT_TRUE(PlausibilityFindings(t, StorageFacts{}).empty());
}

TEST(PlausibilityTest, BimodalDistributionIsReported) {
  Target t;
  probes::ProbeResult r = Probe(Primitive::kFdatasync, 60'000);
  r.latency.bimodal = true;
  r.latency.mode_low = 60'000;
  r.latency.mode_high = 4'000'000;
  r.latency.high_mode_share = 0.25;
  t.probes = {r};
  auto f = PlausibilityFindings(t, StorageFacts{});
  ASSERT_TRUE(Has(f, "sync_bimodal", Severity::kInfo));
  EXPECT_NE(f.back().message.find("25%"), std::string::npos) << f.back().message;
}

// From samples to the finding's text: the clusters are named where the operations are (a
// power-of-two bucket's middle said "near 3.15 ms" for a cluster at 4.0 ms).
TEST(PlausibilityTest, BimodalFindingNamesWhereTheClustersAre) {
  probes::Histogram h;
  for (int i = 0; i < 700; ++i) h.Record(60'000 + (i % 5) * 500);
  for (int i = 0; i < 300; ++i) h.Record(4'000'000 + (i % 3) * 5'000);
  probes::ProbeResult r = Probe(Primitive::kFdatasync, 61'000);
  r.latency = probes::Summarize(h);
  Target t;
  t.probes = {r};
  auto f = PlausibilityFindings(t, StorageFacts{});
  ASSERT_TRUE(Has(f, "sync_bimodal", Severity::kInfo));
  const std::string& m = f.back().message;
  EXPECT_NE(m.find("near 61.1 us and near 4.01 ms (30% of operations in the slower cluster)"),
            std::string::npos)
      << m;
}

TEST(PlausibilityTest, FlushFasterThanAVolatileSpinningDiskCan) {
  Target t;
  t.probes = {Probe(Primitive::kNone, 2'000), Probe(Primitive::kFdatasync, 60'000)};
  StorageFacts hdd{.known = true, .block_backed = true, .rotational = true, .volatile_cache = true};
  EXPECT_TRUE(Has(PlausibilityFindings(t, hdd), "sync_faster_than_device", Severity::kWarn));
  StorageFacts with_fua = hdd;
  with_fua.fua = true;
  EXPECT_FALSE(Has(PlausibilityFindings(t, with_fua), "sync_faster_than_device", Severity::kWarn));
  EXPECT_FALSE(
      Has(PlausibilityFindings(t, StorageFacts{}), "sync_faster_than_device", Severity::kWarn));
}

// Each threshold, one step either side: a finding that fires a little early or late would move
// a host from "fine" to "suspect" without anyone noticing.
TEST(PlausibilityThresholdTest, NoopSyncAtTheAddedTimeLimit) {
  constexpr auto kPlain = 2'000u;
  constexpr auto kLimit = static_cast<std::uint64_t>(kNoopAddedNs);
  StorageFacts disk{.known = true, .block_backed = true};
  Target under, at;
  under.probes = {Probe(Primitive::kNone, kPlain),
                  Probe(Primitive::kFdatasync, kPlain + kLimit - 1)};
  at.probes = {Probe(Primitive::kNone, kPlain), Probe(Primitive::kFdatasync, kPlain + kLimit)};
  EXPECT_TRUE(Has(PlausibilityFindings(under, disk), "sync_noop_suspected", Severity::kWarn));
  EXPECT_FALSE(Has(PlausibilityFindings(at, disk), "sync_noop_suspected", Severity::kWarn));
  // A sync faster than the plain write (negative added time) is suspect too.
  Target faster;
  faster.probes = {Probe(Primitive::kNone, kPlain), Probe(Primitive::kOdsync, kPlain - 500)};
  EXPECT_TRUE(Has(PlausibilityFindings(faster, disk), "sync_noop_suspected", Severity::kWarn));
}

TEST(PlausibilityThresholdTest, NoopNeedsAPlainWriteOfTheSameSizeAndPattern) {
  Target t;
  probes::ProbeResult plain = Probe(Primitive::kNone, 2'000);
  plain.spec.write_size = 8192;
  t.probes = {plain, Probe(Primitive::kFdatasync, 2'100)};
  EXPECT_FALSE(
      Has(PlausibilityFindings(t, StorageFacts{}), "sync_noop_suspected", Severity::kWarn));
}

TEST(PlausibilityThresholdTest, TailAtTenTimesTheMedian) {
  Target under, at;
  under.probes = {Probe(Primitive::kFsync, 100'000, 999'999)};
  at.probes = {Probe(Primitive::kFsync, 100'000, 1'000'000)};
  EXPECT_FALSE(
      Has(PlausibilityFindings(under, StorageFacts{}), "sync_tail_heavy", Severity::kWarn));
  EXPECT_TRUE(Has(PlausibilityFindings(at, StorageFacts{}), "sync_tail_heavy", Severity::kWarn));
}

TEST(PlausibilityThresholdTest, ShapesNeedTwentyOperations) {
  Target few, enough;
  few.probes = {Probe(Primitive::kFsync, 100'000, 5'000'000)};
  few.probes[0].ops = 19;
  enough.probes = {Probe(Primitive::kFsync, 100'000, 5'000'000)};
  enough.probes[0].ops = 20;
  EXPECT_FALSE(Has(PlausibilityFindings(few, StorageFacts{}), "sync_tail_heavy", Severity::kWarn));
  EXPECT_TRUE(
      Has(PlausibilityFindings(enough, StorageFacts{}), "sync_tail_heavy", Severity::kWarn));
}

TEST(PlausibilityThresholdTest, OutlierAtAHundredTimesTheMedianAndTenMilliseconds) {
  auto outlier = [](std::uint64_t p50, std::uint64_t max) {
    Target t;
    t.probes = {Probe(Primitive::kFsync, p50, p50, max)};
    return Has(PlausibilityFindings(t, StorageFacts{}), "sync_max_outlier", Severity::kInfo);
  };
  EXPECT_FALSE(outlier(200'000, 19'999'999));  // 99.99x
  EXPECT_TRUE(outlier(200'000, 20'000'000));   // 100x
  // 100x of a 99.99 us median is under 10 ms: not worth a line.
  EXPECT_FALSE(outlier(99'999, 9'999'900));
  EXPECT_TRUE(outlier(100'000, 10'000'000));
}

TEST(PlausibilityThresholdTest, FasterThanDeviceAtEachLimit) {
  StorageFacts ssd{
      .known = true, .block_backed = true, .rotational = false, .volatile_cache = true};
  StorageFacts hdd = ssd;
  hdd.rotational = true;
  auto fires = [](std::uint64_t p50, const StorageFacts& facts) {
    Target t;
    t.probes = {Probe(Primitive::kNone, 1'000), Probe(Primitive::kFdatasync, p50)};
    return Has(PlausibilityFindings(t, facts), "sync_faster_than_device", Severity::kWarn);
  };
  const auto ssd_limit = static_cast<std::uint64_t>(kVolatileSsdFlushNs);
  const auto hdd_limit = static_cast<std::uint64_t>(kRotationalFlushNs);
  EXPECT_TRUE(fires(ssd_limit - 1, ssd));
  EXPECT_FALSE(fires(ssd_limit, ssd));
  EXPECT_TRUE(fires(hdd_limit - 1, hdd));
  EXPECT_FALSE(fires(hdd_limit, hdd));
  StorageFacts write_through = ssd;
  write_through.volatile_cache = false;
  EXPECT_FALSE(fires(ssd_limit - 1, write_through));
}

}  // namespace
}  // namespace durprobe::analysis
