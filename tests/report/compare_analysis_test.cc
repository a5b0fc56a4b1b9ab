#include "report/compare_analysis.h"

#include <gtest/gtest.h>

#include "report/compare_reporters.h"

namespace durprobe::report {
namespace {

using probes::FileOp;
using probes::Pattern;
using probes::Primitive;

probes::ProbeResult Probe(Primitive prim, Pattern pat, std::uint64_t p50, std::uint64_t sync_p50) {
  probes::ProbeResult r;
  r.spec = {prim, pat, prim == Primitive::kDirFsync ? 0u : 4096u};
  r.ops = 100;
  r.latency.p50 = p50;
  r.has_sync_part = sync_p50 > 0;
  r.sync_latency.p50 = sync_p50;
  return r;
}

probes::OpCostResult Op(FileOp op, std::uint64_t p50) {
  probes::OpCostResult r;
  r.op = op;
  r.ops = 100;
  r.latency.p50 = p50;
  return r;
}

// A path whose sync, per-op and metadata costs are scaled by the given factors.
Target PathWith(const std::string& path, double sync, double op, double meta) {
  Target t;
  t.path = path;
  auto u = [](double v) { return static_cast<std::uint64_t>(v); };
  t.probes = {Probe(Primitive::kFdatasync, Pattern::kOverwrite, u(1000 * op + 100000 * sync),
                    u(100000 * sync)),
              Probe(Primitive::kDirFsync, Pattern::kCreate, u(50000 * meta), u(40000 * meta))};
  t.op_costs = {Op(FileOp::kWrite, u(1000 * op)),     Op(FileOp::kRead, u(500 * op)),
                Op(FileOp::kOpenClose, u(1500 * op)), Op(FileOp::kStat, u(800 * op)),
                Op(FileOp::kCreate, u(5000 * meta)),  Op(FileOp::kRename, u(4000 * meta))};
  return t;
}

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

TEST(CompareAnalysisTest, PenaltyStartsAtItsRatio) {
  // Per-op costs 1.25x the first path's (4750 / 3800 ns exactly): a penalty.
  auto at = CompareVerdicts({PathWith("/a", 1, 1, 1), PathWith("/b", 1, 1.25, 1)});
  EXPECT_EQ(at[0].dominant, "per_op");
  EXPECT_DOUBLE_EQ(at[0].ratio, kPenaltyRatio);
  // 4745 / 3800 = 1.2487x: under the limit, no penalty named.
  auto under = CompareVerdicts({PathWith("/a", 1, 1, 1), PathWith("/b", 1, 1.249, 1)});
  EXPECT_EQ(under[0].dominant, "none");
  EXPECT_NEAR(under[0].per_op_ratio, 4745.0 / 3800.0, 1e-12);
}

TEST(CompareAnalysisTest, TheLargestPenaltyIsDominantAndEveryPathIsAgainstTheFirst) {
  auto v =
      CompareVerdicts({PathWith("/a", 1, 1, 1), PathWith("/b", 3, 2, 1), PathWith("/c", 1, 2, 4)});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].path, "/b");
  EXPECT_EQ(v[0].dominant, "per_sync");
  EXPECT_NEAR(v[0].ratio, 3.0, 1e-9);
  EXPECT_NEAR(v[0].per_op_ratio, 2.0, 1e-9);
  EXPECT_EQ(v[1].path, "/c");
  EXPECT_EQ(v[1].dominant, "metadata");
  EXPECT_NEAR(v[1].ratio, 4.0, 1e-9);
}

TEST(CompareAnalysisTest, AFasterPathHasNoPenalty) {
  auto v = CompareVerdicts({PathWith("/slow", 5, 5, 5), PathWith("/fast", 1, 1, 1)});
  EXPECT_EQ(v[0].dominant, "none");
  EXPECT_NEAR(v[0].per_sync_ratio, 0.2, 1e-9);
}

TEST(CompareJsonTest, DocumentKeys) {
  Comparison c;
  c.targets = {PathWith("/a", 1, 1, 1), PathWith("/b", 1, 10, 1)};
  c.verdicts = CompareVerdicts(c.targets);
  nlohmann::json j = ToJson(c);
  EXPECT_EQ(j["schema"], "durprobe.compare/1");
  EXPECT_EQ(j["paths"], nlohmann::json({"/a", "/b"}));
  ASSERT_EQ(j["targets"].size(), 2u);
  EXPECT_TRUE(j["targets"][1].contains("op_costs"));
  ASSERT_EQ(j["verdicts"].size(), 1u);
  for (const char* key : {"path", "dominant", "ratio", "message"}) {
    EXPECT_TRUE(j["verdicts"][0].contains(key)) << key;
  }
  EXPECT_EQ(j["verdicts"][0]["dominant"], "per_op");
}

}  // namespace
}  // namespace durprobe::report
