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

TEST(RunnerTest, ToResultOfAnUnsupportedProbeHasNoHistogram) {
  LoopOutcome loop;
  loop.status = Status::Unsupported("not here");
  ProbeResult r = ToResult({Primitive::kFullFsync, Pattern::kOverwrite, 4096}, loop, 0.05);
  EXPECT_EQ(r.outcome, Outcome::kUnsupported);
  EXPECT_TRUE(r.histogram.empty());
}

}  // namespace
}  // namespace durprobe::probes
