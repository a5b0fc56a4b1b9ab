// The device's level around each probe: a probe whose reference samples on either side (or in
// between, over compare's rounds) span the drift thresholds is marked with the levels before and
// after it, and named in latency_drift; a steady device marks nothing. The run's level range is
// what check's timing rules are judged against.
#include "analysis/probe_drift.h"

#include <gtest/gtest.h>

#include "analysis/drift.h"
#include "tests/sqlite_samples.h"

namespace durprobe::analysis {
namespace {

using namespace durprobe::testing_support;
constexpr std::uint64_t kDriftSec = 1'000'000'000;

// Two probes, at 1-2 s and 3-4 s; reference samples before each and after the second.
Target ProbesAround(double before_first, double before_second, double end) {
  Target t;
  t.probes = {testing_support::Probe(probes::Primitive::kFdatasync, probes::Pattern::kOverwrite,
                                     4096, 100'000),
              testing_support::Probe(probes::Primitive::kFdatasync, probes::Pattern::kAppend, 4096,
                                     200'000)};
  t.probes[0].series = {{1 * kDriftSec, 10, 100'000, 100'000},
                        {2 * kDriftSec, 10, 100'000, 100'000}};
  t.probes[1].series = {{3 * kDriftSec, 10, 200'000, 200'000},
                        {4 * kDriftSec, 10, 200'000, 200'000}};
  t.reference_probe = "fdatasync overwrite 4 KiB";
  t.reference = {{kDriftSec / 2, "fdatasync overwrite 4 KiB", 40, 0, before_first},
                 {5 * kDriftSec / 2, "fdatasync append 4 KiB", 40, 0, before_second},
                 {9 * kDriftSec / 2, "end", 40, 0, end}};
  return t;
}

TEST(ProbeDriftTest, AProbeBetweenTwoLevelsIsMarkedWithBoth) {
  Target t = ProbesAround(350'000, 350'000, 700'000);
  std::vector<model::DeviceMoved> moved = MovedProbes(t);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].probe, 1u);
  EXPECT_DOUBLE_EQ(moved[0].before_ns, 350'000);
  EXPECT_DOUBLE_EQ(moved[0].after_ns, 700'000);
  EXPECT_DOUBLE_EQ(moved[0].low_ns, 350'000);
  EXPECT_DOUBLE_EQ(moved[0].high_ns, 700'000);

  AddDriftFindings(t);  // fills t.moved and names the probe, with three samples only
  ASSERT_EQ(t.moved.size(), 1u);
  ASSERT_TRUE(HasDriftFinding(t));
  const std::string& m = t.findings.at(0).message;
  EXPECT_NE(m.find("largest step: the reference probe 350 us before fdatasync append 4 KiB "
                   "and 700 us after it (2.00x)"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("touches 1 figure;"), std::string::npos) << m;
}

TEST(ProbeDriftTest, ASteadyDeviceOrNoiseMarksNothing) {
  Target steady = ProbesAround(350'000, 360'000, 340'000);
  EXPECT_TRUE(MovedProbes(steady).empty());
  EXPECT_FALSE(RunLevelRange(steady).has_value());
  AddDriftFindings(steady);
  EXPECT_FALSE(HasDriftFinding(steady));
  // Too small in absolute terms (under 20 us apart), however large the ratio.
  EXPECT_TRUE(MovedProbes(ProbesAround(2'000, 2'000, 9'000)).empty());
}

TEST(ProbeDriftTest, AnExcursionInsideAProbesSpanCountsThoughBothEndsAgree) {
  // compare: one probe merged over rounds, samples before each round and after the last.
  Target t = ProbesAround(100'000, 900'000, 100'000);
  t.probes.resize(1);
  t.probes[0].series.push_back({4 * kDriftSec, 10, 100'000, 100'000});
  std::vector<model::DeviceMoved> moved = MovedProbes(t);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_DOUBLE_EQ(moved[0].before_ns, 100'000);
  EXPECT_DOUBLE_EQ(moved[0].after_ns, 100'000);
  EXPECT_DOUBLE_EQ(moved[0].high_ns, 900'000);
}

TEST(ProbeDriftTest, TheRunsLevelRangeSpansEverySample) {
  std::optional<LevelRange> r = RunLevelRange(ProbesAround(350'000, 1'400'000, 700'000));
  ASSERT_TRUE(r.has_value());
  EXPECT_DOUBLE_EQ(r->low_ns, 350'000);
  EXPECT_DOUBLE_EQ(r->high_ns, 1'400'000);
  EXPECT_DOUBLE_EQ(ReferenceNear(ProbesAround(350'000, 1'400'000, 700'000).reference, 3 * kDriftSec,
                                 4 * kDriftSec),
                   (1'400'000 + 700'000) / 2.0);
}

}  // namespace
}  // namespace durprobe::analysis
