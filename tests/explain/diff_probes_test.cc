// Probe-only reports: the probes both measured, split into the sync call and the rest.
#include "explain/diff_probes.h"

#include <gtest/gtest.h>

#include "tests/diff_fixtures.h"

namespace durprobe::explain {
namespace {

TEST(DiffProbesTest, ProbeOnlyReportsGetAVerdictFromTheSyncCall) {
  Diff d = testing_support::DiffFixtures("probes_a.json", "probes_b_sync.json");
  ASSERT_EQ(d.pairs.size(), 1u);
  EXPECT_TRUE(d.configs.empty());
  ASSERT_EQ(d.pairs[0].probes.size(), 3u);
  const ProbeDiff& overwrite = d.pairs[0].probes[0];
  EXPECT_EQ(LabelOf(overwrite), "fdatasync overwrite 4 KiB");
  // 200 us -> 2.01 ms, of which the sync call 190 us -> 2 ms: 1810 of 1810 us.
  EXPECT_NEAR(overwrite.share_sync, 1.0, 1e-9);
  EXPECT_NEAR(overwrite.share_sync + overwrite.share_non_sync, 1.0, 1e-12);
  EXPECT_EQ(NameOf(d.verdict.factor), "sync_latency");
  EXPECT_NE(d.verdict.message.find("fdatasync overwrite 4 KiB"), std::string::npos)
      << d.verdict.message;
  EXPECT_NE(d.verdict.message.find("10.1x"), std::string::npos) << d.verdict.message;
  EXPECT_TRUE(testing_support::ListsDifference(d, "mount.device.write_cache"));
}

TEST(DiffProbesTest, SlowerWritesAroundTheSameSyncAreNonSync) {
  // Through FUSE: the sync calls take what they took, every write costs ~0.7 ms more.
  Diff d = testing_support::DiffFixtures("probes_a.json", "probes_b_write.json");
  EXPECT_EQ(NameOf(d.verdict.factor), "non_sync");
  // none overwrite (5 us -> 700 us) has the widest gap but makes no sync call: never the headline.
  EXPECT_EQ(d.verdict.message.find("none overwrite"), std::string::npos) << d.verdict.message;
  EXPECT_NE(d.verdict.message.find("fdatasync overwrite 4 KiB"), std::string::npos)
      << d.verdict.message;
  EXPECT_TRUE(testing_support::ListsDifference(d, "mount.fstype"));
}

}  // namespace
}  // namespace durprobe::explain
