// Every key a real report carries is documented in docs/json.md: a key added to a writer without
// a line in the docs fails here.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

// Objects whose keys are data (a sync kind such as "wal append"), not names to document.
const std::set<std::string> kDataKeyed = {"probe_latency"};

void CollectKeys(const nlohmann::json& j, std::set<std::string>& keys) {
  if (j.is_array()) {
    for (const nlohmann::json& e : j) CollectKeys(e, keys);
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      keys.insert(key);
      if (kDataKeyed.count(key) == 0) CollectKeys(value, keys);
    }
  }
}

TEST(JsonDocsTest, EveryKeyOfARealReportIsInDocsJsonMd) {
  testing_support::TempDir dir;
  testing_support::CliRun r = testing_support::RunDurprobe(
      "run --budget 2s --sizes 4k --batch 1,10 --synchronous full,normal --json - " + dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> keys;
  CollectKeys(nlohmann::json::parse(r.out), keys);
  ASSERT_GT(keys.size(), 100u);
  std::string docs = testing_support::Slurp(std::string(DURPROBE_SOURCE_DIR) + "/docs/json.md");
  ASSERT_FALSE(docs.empty());
  for (const std::string& key : keys) {
    EXPECT_NE(docs.find("`" + key + "`"), std::string::npos)
        << "key '" << key << "' is not documented in docs/json.md";
  }
}

}  // namespace
}  // namespace durprobe
