// compare decides a penalty from its noise bound, or says it cannot tell (analysis/decision.h).
#include <gtest/gtest.h>

#include "explain/compare_analysis.h"
#include "tests/compare_samples.h"

namespace durprobe::explain {
namespace {

using testing_support::PathWith;

// Every probe and op cost of t timed on `ops` operations, as a budget cut short leaves them.
model::Target TimedOn(model::Target t, std::uint64_t ops) {
  auto cut = [ops](probes::LatencySummary& l) {
    l.count = ops;
    if (ops == 1) l.p50_ci_low = l.p50_ci_high = l.p50;  // one sample: its own "interval"
  };
  for (probes::ProbeResult& r : t.probes) {
    r.ops = ops;
    cut(r.latency);
    cut(r.sync_latency);
  }
  for (probes::OpCostResult& r : t.op_costs) {
    r.ops = ops;
    cut(r.latency);
  }
  return t;
}

TEST(CompareDecisionTest, OneOperationPerProbeDecidesNoPenalty) {
  // Two paths on one disk, a sync probe timed once on each: 6.69x from one sample each.
  auto v = CompareVerdicts(
      {TimedOn(PathWith("/bind", 1, 1, 1), 1), TimedOn(PathWith("/bindfs", 6.69, 1, 1), 1)});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(NameOf(v[0].dominant), "undecided");
  EXPECT_EQ(VerdictHeadline(v[0]), "cannot tell yet");
  EXPECT_NEAR(v[0].ratio, 6.69, 0.01);
  EXPECT_NE(v[0].message.find("fewer than 20 operations"), std::string::npos) << v[0].message;
  EXPECT_EQ(v[0].message.find("put the database"), std::string::npos) << v[0].message;
}

TEST(CompareDecisionTest, NoPenaltyIsNotClaimedFromTooFewOperationsEither) {
  auto v = CompareVerdicts(
      {TimedOn(PathWith("/a", 1, 1, 1), 5), TimedOn(PathWith("/b", 1.0, 1.0, 1.0), 5)});
  EXPECT_EQ(NameOf(v[0].dominant), "undecided");
}

TEST(CompareDecisionTest, TheSameRatiosFromEnoughOperationsAreDecided) {
  auto v = CompareVerdicts(
      {TimedOn(PathWith("/a", 1, 1, 1), 20), TimedOn(PathWith("/b", 6.69, 1, 1), 20)});
  EXPECT_EQ(NameOf(v[0].dominant), "per_sync");
  auto same = CompareVerdicts(
      {TimedOn(PathWith("/a", 1, 1, 1), 20), TimedOn(PathWith("/b", 1.0, 1.0, 1.0), 20)});
  EXPECT_EQ(NameOf(same[0].dominant), "none");
}

TEST(CompareDecisionTest, APenaltyWhoseBoundsReachOneIsUndecided) {
  model::Target slow = PathWith("/b", 2.0, 1, 1);
  for (probes::ProbeResult& r : slow.probes) {
    // The sync's interval from half to four times its median: 2x could be 1x.
    r.latency.p50_ci_low = r.latency.p50 / 2;
    r.latency.p50_ci_high = r.latency.p50 * 4;
  }
  auto v = CompareVerdicts({PathWith("/a", 1, 1, 1), slow});
  EXPECT_EQ(NameOf(v[0].dominant), "undecided");
  EXPECT_NE(v[0].message.find("reach 1x"), std::string::npos) << v[0].message;
}

}  // namespace
}  // namespace durprobe::explain
