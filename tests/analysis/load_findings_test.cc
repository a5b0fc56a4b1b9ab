#include "analysis/load_findings.h"

#include <gtest/gtest.h>

namespace durprobe::analysis {
namespace {

probes::LoadOutcome Ran(double reads, double writes, double syncs) {
  probes::LoadOutcome o;
  o.asked = {.reads_per_sec = 200, .writes_per_sec = 100, .syncs_per_sec = 10, .sync_bytes = 4096};
  o.achieved = {.reads_per_sec = reads, .writes_per_sec = writes, .syncs_per_sec = syncs};
  o.seconds = 12.0;
  o.direct = true;
  return o;
}

TEST(LoadFindingsTest, ALoadThatKeptUpIsInfoWithItsRates) {
  model::Finding f = LoadFinding(Ran(200, 100, 10));
  EXPECT_EQ(f.severity, Severity::kInfo);
  EXPECT_EQ(f.code, "background_load");
  EXPECT_EQ(f.message,
            "the background load ran 200 reads/s and 100 writes/s of 4 KiB with O_DIRECT (asked "
            "200 and 100), and 10.0 synced writes/s of 4 KiB (each written, then fdatasync; asked "
            "10.0) for 12.0 s.");
}

TEST(LoadFindingsTest, UnderNinetyPercentOfAnyRateIsShort) {
  // 90% of each asked rate holds; one step under it, in any of the three, does not.
  EXPECT_EQ(LoadFinding(Ran(180, 90, 9)).code, "background_load");
  EXPECT_EQ(LoadFinding(Ran(179.9, 100, 10)).code, "background_load_short");
  EXPECT_EQ(LoadFinding(Ran(200, 89.9, 10)).code, "background_load_short");
  model::Finding f = LoadFinding(Ran(200, 100, 8.9));
  EXPECT_EQ(f.code, "background_load_short");
  EXPECT_EQ(f.severity, Severity::kWarn);
  EXPECT_NE(f.message.find("could not sustain it"), std::string::npos) << f.message;
}

TEST(LoadFindingsTest, ALoadStoppedByAnErrorIsShortAndSaysWhy) {
  probes::LoadOutcome o = Ran(200, 100, 10);
  o.status = Status::Error("fdatasync failed: Input/output error");
  model::Finding f = LoadFinding(o);
  EXPECT_EQ(f.code, "background_load_short");
  EXPECT_NE(f.message.find("it stopped on an error: fdatasync failed"), std::string::npos)
      << f.message;
}

}  // namespace
}  // namespace durprobe::analysis
