// Issue 35 item 5: latency_ns carries fio's p99.99 where 10,000 operations support it, and only
// there, so a report from before it round-trips unchanged.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "codec/report_json.h"
#include "probes/histogram.h"
#include "probes/statistics.h"

namespace durprobe::codec {
namespace {

TEST(P9999JsonTest, WrittenFromTenThousandOperationsOnly) {
  probes::Histogram h;
  for (std::uint64_t i = 1; i <= 10'000; ++i) h.Record(i * 1000);
  probes::LatencySummary s = probes::Summarize(h);
  nlohmann::json j = ToJson(s);
  ASSERT_TRUE(j.contains("p9999")) << j.dump();
  EXPECT_GE(j["p9999"].get<std::uint64_t>(), j["p999"].get<std::uint64_t>());
  EXPECT_LE(j["p9999"].get<std::uint64_t>(), j["max"].get<std::uint64_t>());

  probes::Histogram few;
  for (std::uint64_t i = 1; i <= 9'999; ++i) few.Record(i * 1000);
  EXPECT_FALSE(ToJson(probes::Summarize(few)).contains("p9999"));
}

}  // namespace
}  // namespace durprobe::codec
