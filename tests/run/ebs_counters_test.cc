// EBS counters around a run, on pages built from the documented layout and served by the fault
// platform (no EBS volume exists here): a device with the page gets its deltas and findings, a
// device without it is skipped silently.
#include "run/ebs_counters.h"

#include <gtest/gtest.h>

#include "tests/support/fault_platform.h"

namespace durprobe::run {
namespace {

platform::EbsStats Counters(std::uint64_t write_ops, std::uint64_t exceeded_us) {
  platform::EbsStats s;
  s.write_ops = write_ops;
  s.volume_exceeded_iops_us = exceeded_us;
  s.write_latency = {{0, 128, write_ops}};
  return s;
}

TEST(EbsCountersTest, DeltaAndFindingFromThePagesBeforeAndAfter) {
  platform::FaultPlatform fault(platform::Default());
  fault.SetNvmeLogPages({platform::BuildEbsStatsPage(Counters(100, 5'000)),
                         platform::BuildEbsStatsPage(Counters(4100, 1'205'000))});
  std::optional<platform::EbsStats> before = ReadEbsStats(fault, "nvme1n1");
  ASSERT_TRUE(before.has_value());
  EXPECT_EQ(before->device, "nvme1n1");
  std::vector<model::Target> targets(1);
  targets[0].path = "/data";
  AddEbsDeltas(fault, {"/data"}, {before}, targets);
  ASSERT_TRUE(targets[0].ebs.has_value());
  EXPECT_EQ(targets[0].ebs->write_ops, 4000u);
  EXPECT_EQ(targets[0].ebs->volume_exceeded_iops_us, 1'200'000u);
  EXPECT_EQ(targets[0].ebs->write_latency.at(0).count, 4000u);
  ASSERT_EQ(targets[0].findings.size(), 1u);
  EXPECT_EQ(targets[0].findings[0].code, "ebs_volume_limit_exceeded");
  EXPECT_NE(targets[0].findings[0].message.find("IOPS for 1.20 s"), std::string::npos)
      << targets[0].findings[0].message;
  EXPECT_EQ(fault.nvme_reads(), 2);
}

TEST(EbsCountersTest, AVolumeWithinItsLimitsHasNoFinding) {
  platform::FaultPlatform fault(platform::Default());
  fault.SetNvmeLogPages({platform::BuildEbsStatsPage(Counters(100, 7)),
                         platform::BuildEbsStatsPage(Counters(200, 7))});
  std::vector<model::Target> targets(1);
  targets[0].path = "/data";
  AddEbsDeltas(fault, {"/data"}, {ReadEbsStats(fault, "nvme0n1")}, targets);
  ASSERT_TRUE(targets[0].ebs.has_value());
  EXPECT_EQ(targets[0].ebs->volume_exceeded_iops_us, 0u);
  EXPECT_TRUE(targets[0].findings.empty());
}

TEST(EbsCountersTest, DevicesWithoutThePageAreSkippedSilently) {
  platform::FaultPlatform fault(platform::Default());
  std::vector<std::uint8_t> other(4096, 0xab);  // answers, but not with EBS statistics
  fault.SetNvmeLogPages({other});
  EXPECT_FALSE(ReadEbsStats(fault, "nvme0n1").has_value());
  // This machine's disks are not NVMe EBS volumes: nothing is read, nothing is reported.
  std::vector<std::optional<platform::EbsStats>> before =
      ReadEbsBefore(platform::Default(), {"/tmp"});
  ASSERT_EQ(before.size(), 1u);
  EXPECT_FALSE(before[0].has_value());
  std::vector<model::Target> targets(1);
  targets[0].path = "/tmp";
  AddEbsDeltas(platform::Default(), {"/tmp"}, before, targets);
  EXPECT_FALSE(targets[0].ebs.has_value());
  EXPECT_TRUE(targets[0].findings.empty());
}

}  // namespace
}  // namespace durprobe::run
