// --no-flush-count (the flush counters read around each probe, probes/flush_tally.h) on the
// binary: the option turns the counting off everywhere a report would show it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_runner.h"
#include "tests/test_dirs.h"

namespace durprobe {
namespace flush_count_option_test {

using nlohmann::json;

// --no-flush-count counts nothing: no device_flushes in any row, no device_flushes layer, and the
// report's options say so; without it the same probe is counted.
TEST(FlushCountOptionTest, NoFlushCountLeavesNoFlushesAnywhere) {
  testing_support::TempDir dir("/var/tmp");
  for (bool counted : {false, true}) {
    testing_support::CliRun r =
        testing_support::RunDurprobe("probe " + dir.path() +
                                     " --primitives fdatasync --patterns overwrite "
                                     "--budget 1s --json -" +
                                     (counted ? "" : " --no-flush-count"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json report = json::parse(r.out);
    const json& t = report["targets"][0];
    EXPECT_EQ(report["context"]["options"]["count_flushes"], counted);
    ASSERT_FALSE(t["probes"].empty());
    EXPECT_EQ(t["probes"][0].contains("device_flushes"), counted) << t["probes"][0];
    bool layer = false;
    for (const json& l : t["durability"]["layers"]) layer = layer || l["kind"] == "device_flushes";
    EXPECT_EQ(layer, counted) << t["durability"];
  }
}

}  // namespace flush_count_option_test
}  // namespace durprobe
