// compare's JSON document: its keys, and paths that are not UTF-8.
#include "render/json/compare_json.h"

#include <gtest/gtest.h>

#include "tests/compare_samples.h"

namespace durprobe::render::json {
namespace {

using testing_support::PathWith;

TEST(CompareJsonTest, DocumentKeys) {
  explain::Comparison c;
  c.targets = {PathWith("/a", 1, 1, 1), PathWith("/b", 1, 10, 1)};
  c.verdicts = explain::CompareVerdicts(c.targets);
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

TEST(CompareJsonTest, PathsThatAreNotUtf8KeepTheirBytes) {
  explain::Comparison c;
  c.targets = {PathWith("/a", 1, 1, 1), PathWith("/b\xff", 1, 10, 1)};
  c.verdicts = explain::CompareVerdicts(c.targets);
  nlohmann::json j = ToJson(c);
  ASSERT_NO_THROW(j.dump());
  EXPECT_EQ(j["paths"], nlohmann::json({"/a", "/b\xef\xbf\xbd"}));
  EXPECT_EQ(j["paths_bytes"], nlohmann::json({nullptr, "2f62ff"}));
  EXPECT_EQ(j["targets"][1]["path_bytes"], "2f62ff");
  EXPECT_EQ(j["verdicts"][0]["path_bytes"], "2f62ff");
}

}  // namespace
}  // namespace durprobe::render::json
