#include "report/compare_analysis.h"

#include <gtest/gtest.h>

#include "report/compare_reporters.h"
#include "tests/report/compare_samples.h"

namespace durprobe::report {
namespace {

using probes::FileOp;
using probes::Pattern;
using probes::Primitive;
using testing_support::PathWith;

TEST(CompareAnalysisTest, ComponentsFollowTheirDefinitions) {
  Components c = ComponentsOf(PathWith("/a", 1, 1, 1));
  ASSERT_TRUE(c.per_sync_ns && c.per_op_ns && c.metadata_ns);
  EXPECT_DOUBLE_EQ(*c.per_sync_ns, 100000);  // (1000 + 100000) - 1000
  EXPECT_DOUBLE_EQ(*c.per_op_ns, 1000 + 500 + 1500 + 800);
  EXPECT_DOUBLE_EQ(*c.metadata_ns, 5000 + 4000 + 40000);
}

TEST(CompareAnalysisTest, FusePerOperationPenaltyIsNamed) {
  auto v = CompareVerdicts({PathWith("/volume", 1, 1, 1), PathWith("/share", 1.1, 12, 1.2)});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].path, "/share");
  EXPECT_EQ(v[0].dominant, "per_op");
  EXPECT_NEAR(v[0].ratio, 12.0, 0.01);
  EXPECT_NE(v[0].message.find("volume inside the VM"), std::string::npos) << v[0].message;
}

TEST(CompareAnalysisTest, SlowFlushIsAPerSyncPenalty) {
  auto v = CompareVerdicts({PathWith("/fast", 1, 1, 1), PathWith("/slow", 8.7, 1, 1.1)});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].dominant, "per_sync");
  EXPECT_NEAR(v[0].per_sync_ratio, 8.7, 0.01);
}

TEST(CompareAnalysisTest, MetadataPenalty) {
  auto v = CompareVerdicts({PathWith("/a", 1, 1, 1), PathWith("/b", 1, 1, 5)});
  EXPECT_EQ(v[0].dominant, "metadata");
}

TEST(CompareAnalysisTest, SimilarPathsHaveNoDominantPenalty) {
  auto v = CompareVerdicts({PathWith("/a", 1, 1, 1), PathWith("/b", 1.1, 0.9, 1.2)});
  EXPECT_EQ(v[0].dominant, "none");
}

TEST(CompareAnalysisTest, MissingMeasurementsGiveNoRatio) {
  Target empty;
  empty.path = "/empty";
  auto v = CompareVerdicts({PathWith("/a", 1, 1, 1), empty});
  EXPECT_EQ(v[0].dominant, "none");
  EXPECT_EQ(v[0].per_sync_ratio, 0.0);
}

}  // namespace
}  // namespace durprobe::report
