// Another process's flushes on a path's device (analysis/neighbours.h): read from the idle
// slices every counted measurement has, decided beyond the count's noise, and said in a finding
// that names the processes that wrote most meanwhile.
#include "analysis/neighbours.h"

#include <gtest/gtest.h>

namespace durprobe::analysis {
namespace neighbours_test {

model::Target WithIdleFlushes(std::uint64_t flushes, std::uint64_t idle_ns) {
  model::Target t;
  t.path = "/db";
  probes::ProbeResult r;
  r.device_flushes.counted = true;
  r.device_flushes.idle_ns = idle_ns;
  r.device_flushes.devices.push_back({.name = "vda", .idle_flushes = flushes});
  t.probes = {r, r};  // two probes: their idle slices add up
  return t;
}

TEST(NeighboursTest, TheIdleSlicesFlushesOverTheirTimeAreTheNeighboursRate) {
  std::optional<DeviceBackground> b = BackgroundFlushes(WithIdleFlushes(490, 100'000'000));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->device, "vda");
  EXPECT_EQ(b->flushes, 980u);
  EXPECT_DOUBLE_EQ(b->per_sec, 4900.0);
  EXPECT_TRUE(b->busy());
  EXPECT_LT(b->per_sec_low, b->per_sec);
  EXPECT_GT(b->per_sec_high, b->per_sec);
}

TEST(NeighboursTest, AFindingNamesTheRateAndTheWriters) {
  std::vector<model::Finding> f = NeighbourFindings(WithIdleFlushes(490, 100'000'000),
                                             {{1234, "fio", 16 << 20, 4096}, {77, "cp", 2048, 1}});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].code, "neighbour_flushes");
  EXPECT_NE(f[0].message.find("another process flushed vda 4,900 times a second during this run"),
            std::string::npos)
      << f[0].message;
  EXPECT_NE(f[0].message.find("the most writing meanwhile: fio pid 1234 (16.0 MiB), cp pid 77 "
                              "(2 KiB)"),
            std::string::npos)
      << f[0].message;
}

TEST(NeighboursTest, AnIdleJournalOrOneFlushIsNoNeighbour) {
  EXPECT_TRUE(NeighbourFindings(WithIdleFlushes(1, 1'000'000'000), {}).empty());  // 2 a second
  EXPECT_TRUE(NeighbourFindings(WithIdleFlushes(1, 50'000'000), {}).empty());     // 1 of each
  EXPECT_FALSE(BackgroundFlushes(WithIdleFlushes(5, 5'000'000)));  // 10 ms of idle time
}

}  // namespace neighbours_test
}  // namespace durprobe::analysis
