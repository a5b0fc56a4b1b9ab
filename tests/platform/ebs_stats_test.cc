// The EBS statistics page, built byte by byte from the documented layout (nvme-cli's
// plugins/amzn `struct amzn_latency_log_page`, FreeBSD's ebsnvme): no EBS volume exists here.
#include "platform/ebs_stats.h"

#include <gtest/gtest.h>

namespace durprobe::platform {
namespace {

void Put(std::vector<std::uint8_t>& page, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) page[at + static_cast<std::size_t>(i)] = (v >> (8 * i)) & 0xff;
}

// The layout written out by offset, independent of the parser's own constants.
std::vector<std::uint8_t> DocumentedPage() {
  std::vector<std::uint8_t> page(4096, 0);
  Put(page, 0, 0x3C23B510, 4);  // magic
  Put(page, 8, 11, 8);          // total_read_ops
  Put(page, 16, 22, 8);         // total_write_ops
  Put(page, 24, 33, 8);         // total_read_bytes
  Put(page, 32, 44, 8);         // total_write_bytes
  Put(page, 40, 55, 8);         // total_read_time (us)
  Put(page, 48, 66, 8);         // total_write_time (us)
  Put(page, 56, 1'500'000, 8);  // ebs_volume_performance_exceeded_iops (us)
  Put(page, 64, 77, 8);         // ebs_volume_performance_exceeded_tp
  Put(page, 72, 88, 8);         // ec2_instance_ebs_performance_exceeded_iops
  Put(page, 80, 99, 8);         // ec2_instance_ebs_performance_exceeded_tp
  Put(page, 88, 4, 8);          // volume_queue_length
  // Read histogram at 512: two bins; write histogram at 512 + 8 + 64 * 24 = 2056: one bin.
  Put(page, 512, 2, 8);
  Put(page, 520, 0, 8);
  Put(page, 528, 128, 8);
  Put(page, 536, 7, 4);
  Put(page, 544, 128, 8);
  Put(page, 552, 256, 8);
  Put(page, 560, 3, 4);
  Put(page, 2056, 1, 8);
  Put(page, 2064, 512, 8);
  Put(page, 2072, 1024, 8);
  Put(page, 2080, 9, 4);
  return page;
}

TEST(EbsStatsTest, ParsesTheDocumentedLayout) {
  std::optional<EbsStats> s = ParseEbsStatsPage(DocumentedPage());
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->read_ops, 11u);
  EXPECT_EQ(s->write_ops, 22u);
  EXPECT_EQ(s->read_bytes, 33u);
  EXPECT_EQ(s->write_bytes, 44u);
  EXPECT_EQ(s->read_time_us, 55u);
  EXPECT_EQ(s->write_time_us, 66u);
  EXPECT_EQ(s->volume_exceeded_iops_us, 1'500'000u);
  EXPECT_EQ(s->volume_exceeded_tp_us, 77u);
  EXPECT_EQ(s->instance_exceeded_iops_us, 88u);
  EXPECT_EQ(s->instance_exceeded_tp_us, 99u);
  EXPECT_EQ(s->queue_length, 4u);
  ASSERT_EQ(s->read_latency.size(), 2u);
  EXPECT_EQ(s->read_latency[1].lower_us, 128u);
  EXPECT_EQ(s->read_latency[1].upper_us, 256u);
  EXPECT_EQ(s->read_latency[1].count, 3u);
  ASSERT_EQ(s->write_latency.size(), 1u);
  EXPECT_EQ(s->write_latency[0].upper_us, 1024u);
  EXPECT_EQ(s->write_latency[0].count, 9u);
}

TEST(EbsStatsTest, BuildIsTheInverseOfParse) {
  std::optional<EbsStats> s = ParseEbsStatsPage(DocumentedPage());
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(BuildEbsStatsPage(*s), DocumentedPage());
}

TEST(EbsStatsTest, AnotherMagicOrAShortPageIsNotEbs) {
  std::vector<std::uint8_t> page = DocumentedPage();
  Put(page, 0, 0xEC2C0D7E, 4);  // the instance-store page's magic
  EXPECT_FALSE(ParseEbsStatsPage(page).has_value());
  EXPECT_FALSE(ParseEbsStatsPage(std::vector<std::uint8_t>(512, 0)).has_value());
  EXPECT_FALSE(ParseEbsStatsPage(std::vector<std::uint8_t>(4096, 0)).has_value());
}

TEST(EbsStatsTest, BinCountsBeyondTheTableAreCut) {
  std::vector<std::uint8_t> page = DocumentedPage();
  Put(page, 512, 1000, 8);  // a corrupt bin count reads no further than 64 bins
  std::optional<EbsStats> s = ParseEbsStatsPage(page);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->read_latency.size(), 64u);
}

TEST(EbsStatsTest, DeltaSubtractsCountersAndKeepsTheQueueLength) {
  EbsStats before = *ParseEbsStatsPage(DocumentedPage());
  EbsStats after = before;
  after.write_ops += 1000;
  after.volume_exceeded_iops_us += 250'000;
  after.queue_length = 9;
  after.write_latency[0].count += 40;
  after.read_ops = 1;  // went backwards (re-attached): 0, never a wrap
  EbsStats d = EbsDelta(before, after);
  EXPECT_EQ(d.write_ops, 1000u);
  EXPECT_EQ(d.volume_exceeded_iops_us, 250'000u);
  EXPECT_EQ(d.instance_exceeded_iops_us, 0u);
  EXPECT_EQ(d.queue_length, 9u);
  EXPECT_EQ(d.write_latency[0].count, 40u);
  EXPECT_EQ(d.read_ops, 0u);
}

}  // namespace
}  // namespace durprobe::platform
