#include "probes/runner.h"

#include <gtest/gtest.h>

namespace durprobe::probes {
namespace {

TEST(RunnerTest, ToResultKeepsTheWholeOperationsHistogramCompact) {
  LoopOutcome loop;
  for (std::uint64_t v : {900'000, 1'000'000, 1'000'000, 4'000'000}) loop.total.Record(v);
  loop.sync.Record(800'000);
  loop.ops = 4;
  loop.elapsed_ns = 7'000'000;
  ProbeResult r = ToResult({Primitive::kFdatasync, Pattern::kOverwrite, 4096}, loop, 0.05);
  EXPECT_EQ(r.histogram, NonEmptyBuckets(loop.total));
  ASSERT_EQ(r.histogram.size(), 3u);
  std::uint64_t counted = 0;
  for (const HistogramBucket& b : r.histogram) counted += b.count;
  EXPECT_EQ(counted, r.ops);
  EXPECT_EQ(r.histogram[1].count, 2u);
}

// A median's interval needs 20 operations over 0.5 s of timing (CiSupported): one operation,
// however narrow its "interval", is not converged; 20 over 0.5 s with a tight one is.
TEST(RunnerTest, ConvergedNeedsTheOperationsAndTimeAnIntervalIsShownFrom) {
  const ProbeSpec spec{Primitive::kFsync, Pattern::kOverwrite, 4096};
  LoopOutcome one;
  one.total.Record(4'010'000);
  one.ops = 1;
  one.elapsed_ns = 4'010'000;
  EXPECT_FALSE(ToResult(spec, one, 1.0).converged);

  LoopOutcome twenty;
  for (int i = 0; i < 20; ++i) twenty.total.Record(25'000'000);
  twenty.ops = 20;
  twenty.elapsed_ns = 499'000'000;
  EXPECT_FALSE(ToResult(spec, twenty, 0.05).converged);  // 0.499 s of timing
  twenty.elapsed_ns = 500'000'000;
  EXPECT_TRUE(ToResult(spec, twenty, 0.05).converged);
}

TEST(RunnerTest, ToResultOfAnUnsupportedProbeHasNoHistogram) {
  LoopOutcome loop;
  loop.status = Status::Unsupported("not here");
  ProbeResult r = ToResult({Primitive::kFullFsync, Pattern::kOverwrite, 4096}, loop, 0.05);
  EXPECT_EQ(r.outcome, Outcome::kUnsupported);
  EXPECT_TRUE(r.histogram.empty());
}

}  // namespace
}  // namespace durprobe::probes
