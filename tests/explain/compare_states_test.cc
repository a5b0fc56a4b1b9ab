// compare on a device with two states: the per-sync probe's figures in the same state on both
// paths, and a per-sync gap of the mixtures that each state alone does not show is the time each
// path spent in the slow state, not a penalty (explain/compare_states.h).
#include "explain/compare_states.h"

#include <gtest/gtest.h>

#include "explain/compare_analysis.h"
#include "tests/compare_samples.h"

namespace durprobe::explain {
namespace {

using testing_support::PathWith;

model::StateFigures State(model::DeviceState s, std::uint64_t p50, double share) {
  return {.state = s, .time_share = share, .ops = 200, .p50_ns = p50};
}

// A path whose fdatasync overwrite (probe 0) ran in both states: fast 120 us, slow fast_ns.
model::Target TwoStates(const std::string& path, double sync, std::uint64_t slow_ns,
                        double slow_share) {
  model::Target t = PathWith(path, sync, 1, 1);
  t.device_states = model::DeviceStates{"the reference probe", 120'000, 4'000'000, slow_share};
  t.probe_states = {{0,
                     {State(model::DeviceState::kFast, 120'000, 1 - slow_share),
                      State(model::DeviceState::kSlow, slow_ns, slow_share)}}};
  return t;
}

TEST(CompareStatesTest, TheSameStateOnBothPathsSlowFirst) {
  const std::vector<StateRatio> r =
      StateRatios(TwoStates("/b", 3, 4'100'000, 0.6), TwoStates("/a", 1, 4'000'000, 0.2));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].state, model::DeviceState::kSlow);
  EXPECT_DOUBLE_EQ(r[0].ratio, 4.1 / 4.0);
  EXPECT_DOUBLE_EQ(r[0].here_share, 0.6);
  EXPECT_EQ(r[1].state, model::DeviceState::kFast);
  EXPECT_DOUBLE_EQ(r[1].ratio, 1.0);
  EXPECT_TRUE(NoPenaltyInAnyState(r, kPenaltyRatio));
  EXPECT_EQ(StateRatiosText(r),
            "fdatasync overwrite 4 KiB in the slow state (the one to plan for): 4.10 ms against "
            "4.00 ms (1.02x); in the fast state: 120 us against 120 us (1.00x)");
}

TEST(CompareStatesTest, NoStatesOrNoCommonStateGiveNoRatio) {
  EXPECT_TRUE(StateRatios(PathWith("/b", 3, 1, 1), PathWith("/a", 1, 1, 1)).empty());
  model::Target fast_only = TwoStates("/a", 1, 4'000'000, 0.2);
  fast_only.probe_states[0].states.pop_back();
  const std::vector<StateRatio> r = StateRatios(TwoStates("/b", 1, 4'000'000, 0.5), fast_only);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].state, model::DeviceState::kFast);
  EXPECT_FALSE(NoPenaltyInAnyState(r, kPenaltyRatio));  // the state to plan for is missing
}

TEST(CompareStatesTest, AMixtureGapThatNoStateShowsIsNoPenalty) {
  // The mixtures: 300 us against 100 us a sync (3x), as a path that spent more of its time in
  // the slow state reads; in each state the two cost the same.
  std::vector<model::Target> targets = {TwoStates("/a", 1, 4'000'000, 0.2),
                                        TwoStates("/b", 3, 4'000'000, 0.6)};
  std::vector<Verdict> v = CompareVerdicts(targets);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NEAR(v[0].per_sync_ratio, 3.0, 0.01);
  EXPECT_EQ(v[0].dominant, Dominant::kNone) << v[0].message;
  EXPECT_NE(v[0].message.find("no per-sync penalty in either state: the mixtures differ because "
                              "this path spent 60% of its time in the slow state and the first "
                              "20%"),
            std::string::npos)
      << v[0].message;
}

TEST(CompareStatesTest, APenaltyInTheSlowStateStaysAPenalty) {
  std::vector<model::Target> targets = {TwoStates("/a", 1, 4'000'000, 0.3),
                                        TwoStates("/b", 3, 12'000'000, 0.3)};
  std::vector<Verdict> v = CompareVerdicts(targets);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].dominant, Dominant::kPerSync) << v[0].message;
  EXPECT_NE(v[0].message.find("by the device's state (device_states): fdatasync overwrite 4 KiB "
                              "in the slow state (the one to plan for): 12.0 ms against 4.00 ms "
                              "(3.00x)"),
            std::string::npos)
      << v[0].message;
  EXPECT_EQ(v[0].message.find("no per-sync penalty"), std::string::npos) << v[0].message;
}

}  // namespace
}  // namespace durprobe::explain
