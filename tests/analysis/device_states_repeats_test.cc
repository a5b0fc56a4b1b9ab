// --repeat on a device with two states: each state's p50 per repeat, their median and range,
// in the analysis and the JSON both ways.
#include <gtest/gtest.h>

#include "analysis/device_states.h"
#include "codec/json_reader.h"
#include "codec/report_json.h"
#include "tests/analysis/two_state_run.h"

namespace durprobe::analysis {
namespace device_states_repeats_test {

using namespace two_state_run;  // NOLINT(build/namespaces): the samples of every test here

// --repeat 3: probe 0's windows came in three repeats, the fast state at 90, 100 and 120 us and
// the slow one at 3.8 and 4.2 ms (the third repeat ran wholly fast). Each state's p50 is the median
// of its repeats', with their range; a repeat that spent no operations in a state is left out.
TEST(DeviceStatesTest, WithRepeatsEachStateHasItsRangeBetweenRuns) {
  model::Target t = TwoStateRun();
  const std::vector<double> levels{90'000,    90'000,    3'800'000, 3'800'000, 100'000, 100'000,
                                   4'200'000, 4'200'000, 120'000,   120'000,   120'000, 120'000};
  t.probes[0] = ProbeOver(levels, 20, 9 * kStateSec + 200'000'000);
  for (std::size_t i = 0; i < levels.size(); ++i)
    t.probes[0].series[i].repeat = static_cast<std::uint32_t>(i / 4);
  AddDeviceStates(t);
  ASSERT_FALSE(t.probe_states.empty());
  ASSERT_EQ(t.probe_states[0].states.size(), 2u);
  const model::StateFigures& fast = t.probe_states[0].states[0];
  const model::StateFigures& slow = t.probe_states[0].states[1];
  ASSERT_EQ(fast.p50_repeats.n, 3u);
  EXPECT_NEAR(fast.p50_repeats.min, 100'000, 10'000);  // the whole operation: + 10 us
  EXPECT_NEAR(fast.p50_repeats.median, 110'000, 10'000);
  EXPECT_NEAR(fast.p50_repeats.max, 130'000, 12'000);
  EXPECT_EQ(double(fast.p50_ns), fast.p50_repeats.median);
  ASSERT_EQ(slow.p50_repeats.n, 2u);
  EXPECT_NEAR(slow.p50_repeats.min, 3'810'000, 400'000);
  EXPECT_NEAR(slow.p50_repeats.max, 4'210'000, 400'000);
  EXPECT_LT(slow.p50_repeats.min, slow.p50_repeats.max);
  // One run alone has no range.
  EXPECT_EQ(t.probe_states[1].states[0].p50_repeats.n, 0u);

  model::Report report;
  report.targets.push_back(t);
  nlohmann::json j = codec::ToJson(report);
  const nlohmann::json& states = j["targets"][0]["probes"][0]["states"];
  EXPECT_EQ(states[0]["repeats"]["p50_ns"]["n"], 3);
  EXPECT_FALSE(j["targets"][0]["probes"][1]["states"][0].contains("repeats"));
  Result<model::Report> back = codec::FromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->targets[0].probe_states[0].states[0].p50_repeats, fast.p50_repeats);
  EXPECT_EQ(back->targets[0].probe_states[0].states[1].p50_repeats, slow.p50_repeats);
}

}  // namespace device_states_repeats_test
}  // namespace durprobe::analysis
