// Issue 55: the conditions a side ran under rank as causes of their own (cpu_quota, io_limit,
// neighbour), each on its own record; one equal on both sides moves nothing; and drift never
// explains a gap such a condition explains on the same side, nor ranks ahead of one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "explain/causes.h"
#include "tests/cause_fixtures.h"

namespace durprobe::explain {
namespace cause_conditions_test {

using testing_support::CausePath;

const Cause* Find(const std::vector<Cause>& causes, const std::string& key) {
  for (const Cause& c : causes) {
    if (c.key == key) return &c;
  }
  return nullptr;
}

// Two reports of the same path on ext4 (diff): b's syncs slower by sync_scale, its reference
// probe level by the same (what the device's state alone would also show).
struct Pair {
  model::Target a = CausePath("/db"), b;
  model::Context ca, cb;
  explicit Pair(double sync_scale, double op_scale = 1)
      : b(CausePath(
            "/db",
            {.overwrite = sync_scale, .append = sync_scale, .dir = sync_scale, .op = op_scale})) {
    a.reference_probe = b.reference_probe = "fdatasync overwrite 4 KiB";
    for (std::uint64_t t : {0u, 1000u, 2000u}) {
      a.reference.push_back({t, "probes", 40, 200'000, 200'000.0});
      const double level = 200'000.0 * sync_scale;
      b.reference.push_back({t, "probes", 40, static_cast<std::uint64_t>(level), level});
    }
    ca.kernel = cb.kernel = "6.1.0";
  }
  std::vector<Cause> Rank() const {
    return RankCauses({&a, &b, &ca, &cb, "a", "b", nullptr, {}, true});
  }
};

platform::IoLimits WriteIops(std::uint64_t iops) {
  platform::IoLimits l;
  l.version = "v1";
  l.cgroup = "/durprobe-test";
  platform::IoLimit d;
  d.device = "254:0";
  d.name = "vda";
  d.write_iops = iops;
  d.cgroup = "/durprobe-test";
  l.devices.push_back(d);
  return l;
}

void Neighbour(model::Target& t, std::uint64_t idle_flushes, std::uint64_t idle_ns) {
  probes::FlushTally& f = t.probes[0].device_flushes;
  f.counted = true;
  f.idle_ns = idle_ns;
  f.devices.push_back({.name = "vda", .idle_flushes = idle_flushes});
}

TEST(CauseConditionsTest, AnIoLimitOnOneSideLeadsAndTakesDriftsPlace) {
  Pair p(40);  // 200 us -> 8 ms: 125 syncs a second under a 100-IOPS cap
  ASSERT_NE(Find(p.Rank(), "drift"), nullptr) << "without the limit the state explains it";
  p.cb.io_limits = WriteIops(100);
  std::vector<Cause> causes = p.Rank();
  ASSERT_FALSE(causes.empty());
  EXPECT_EQ(causes.front().key, "io_limit") << causes.front().evidence;
  EXPECT_EQ(causes.front().side, "b");
  EXPECT_NE(causes.front().evidence.find("b ran under a cgroup I/O limit on vda (write 100 IOPS, "
                                         "set in /durprobe-test; a: none)"),
            std::string::npos)
      << causes.front().evidence;
  EXPECT_NE(causes.front().evidence.find("125 syncs a second, at the cap"), std::string::npos)
      << causes.front().evidence;
  EXPECT_EQ(Find(causes, "drift"), nullptr) << "the limit explains b's slower state";
}

TEST(CauseConditionsTest, ALimitOrQuotaEqualOnBothSidesMovesNothing) {
  Pair p(40, 5);
  p.ca.io_limits = p.cb.io_limits = WriteIops(100);
  p.ca.io_limits.devices[0].device = "8:0";  // another host's numbering of the same limit
  p.ca.cpu_quota.version = p.cb.cpu_quota.version = "v2";
  p.ca.cpu_quota.quota_us = p.cb.cpu_quota.quota_us = 20'000;
  p.ca.cpu_quota.period_us = p.cb.cpu_quota.period_us = 100'000;
  std::vector<Cause> causes = p.Rank();
  EXPECT_EQ(Find(causes, "io_limit"), nullptr);
  EXPECT_EQ(Find(causes, "cpu_quota"), nullptr);
  // A tighter limit on a is a cause on a, whichever side is slower.
  p.ca.io_limits.devices[0].write_iops = 50;
  const std::vector<Cause> tighter = p.Rank();
  const Cause* limit = Find(tighter, "io_limit");
  ASSERT_NE(limit, nullptr);
  EXPECT_EQ(limit->side, "a");
}

TEST(CauseConditionsTest, ACpuQuotaWithThrottledProbesLeadsTheCpuBoundGap) {
  Pair p(1.3, 5);
  p.cb.cpu_quota.version = "v1";
  p.cb.cpu_quota.quota_us = 20'000;
  p.cb.cpu_quota.period_us = 100'000;
  for (int i = 0; i < 15; ++i)
    p.b.findings.push_back({model::Severity::kWarn, "cpu_throttled", "x"});
  std::vector<Cause> causes = p.Rank();
  ASSERT_FALSE(causes.empty());
  EXPECT_EQ(causes.front().key, "cpu_quota") << causes.front().evidence;
  EXPECT_EQ(causes.front().side, "b");
  EXPECT_NE(causes.front().evidence.find("b ran under a CPU quota of 0.20 CPUs (a: none); 15 of "
                                         "b's measurements ran out of the quota (cpu_throttled)"),
            std::string::npos)
      << causes.front().evidence;
  const Cause* drift = Find(causes, "drift");
  EXPECT_TRUE(drift == nullptr || drift->side != "b") << drift->evidence;
}

TEST(CauseConditionsTest, ANeighbourOnTheSlowerSideLeadsAheadOfDrift) {
  Pair p(3);
  Neighbour(p.b, 4'900, 1'000'000'000);
  Neighbour(p.a, 1, 1'000'000'000);
  std::vector<Cause> causes = p.Rank();
  ASSERT_FALSE(causes.empty());
  EXPECT_EQ(causes.front().key, "neighbour") << causes.front().evidence;
  EXPECT_EQ(causes.front().side, "b");
  EXPECT_NE(causes.front().evidence.find("b shared its device: another process flushed vda 4,900 "
                                         "times a second during the run"),
            std::string::npos)
      << causes.front().evidence;
  EXPECT_EQ(Find(causes, "drift"), nullptr);
}

TEST(CauseConditionsTest, DriftOnTheOtherSideStaysBehindTheNeighbour) {
  Pair p(3);
  Neighbour(p.a, 4'900, 1'000'000'000);  // the neighbour on a, b slower by its reference
  std::vector<Cause> causes = p.Rank();
  const Cause* neighbour = Find(causes, "neighbour");
  const Cause* drift = Find(causes, "drift");
  ASSERT_NE(neighbour, nullptr);
  ASSERT_NE(drift, nullptr);
  EXPECT_EQ(neighbour->side, "a");
  EXPECT_EQ(drift->side, "b");
  EXPECT_LT(neighbour, drift) << "a condition with its evidence ranks ahead of drift";
}

// A shared disk with a neighbour on both sides: the busier side's is a cause only beyond the
// noise of both counts.
TEST(CauseConditionsTest, NeighboursOnBothSidesCountOnlyBeyondTheNoise) {
  Pair p(3);
  Neighbour(p.a, 24, 130'000'000);  // 185 a second, from 24 flushes
  Neighbour(p.b, 30, 130'000'000);  // 231 a second: within the noise
  EXPECT_EQ(Find(p.Rank(), "neighbour"), nullptr);
  Pair q(3);
  Neighbour(q.a, 24, 130'000'000);
  Neighbour(q.b, 90, 130'000'000);  // 692 a second
  const std::vector<Cause> ranked = q.Rank();
  const Cause* n = Find(ranked, "neighbour");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->side, "b");
}

TEST(CauseConditionsTest, AQuietBackgroundOrTooFewIdleFlushesIsNoNeighbour) {
  Pair p(3);
  Neighbour(p.b, 3, 1'000'000'000);  // an idle journal's commits
  EXPECT_EQ(Find(p.Rank(), "neighbour"), nullptr);
  Pair q(3);
  Neighbour(q.b, 1, 50'000'000);  // 20 a second, from one flush: within the count's noise
  EXPECT_EQ(Find(q.Rank(), "neighbour"), nullptr);
}

}  // namespace cause_conditions_test
}  // namespace durprobe::explain
