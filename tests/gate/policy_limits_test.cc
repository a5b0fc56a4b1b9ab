// Hostile policies (issue 23): nesting deeper than a policy can be, a key twice, a second rule of
// one name, an unknown finding code, and a document of 80k keys, each one line naming the file
// and line.
#include <gtest/gtest.h>

#include <string>

#include "gate/policy.h"
#include "gate/presets.h"
#include "model/finding_codes.h"

namespace durprobe::gate {
namespace {

void ExpectLimitError(const Result<Policy>& p, const std::string& where,
                      const std::string& needle) {
  ASSERT_FALSE(p.ok());
  std::string m = p.status().message();
  EXPECT_EQ(m.rfind(where, 0), 0u) << m;
  EXPECT_NE(m.find(needle), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
}

TEST(PolicyLimitsTest, JsonNestedTenThousandDeepIsRefusedWithItsLine) {
  std::string text = "{\n\"preset\": " + std::string(10000, '[') + std::string(10000, ']') + "}";
  ExpectLimitError(ParsePolicy(text, "json", "deep.json"),
                   "deep.json:2:", "nested deeper than 16 levels");
  std::string objects = "{";
  for (int i = 0; i < 10000; ++i) objects += "\"a\":{";
  objects += std::string(10000, '}') + "}";
  ExpectLimitError(ParsePolicy(objects, "json", "o.json"), "o.json:1:", "nested deeper");
  // A bracket inside a string is not nesting.
  Result<Policy> quoted = ParsePolicy("{\"preset\": \"etcd\", \"latency\": {\"name\": \"" +
                                          std::string(100, '[') + "\", \"p99\": \"10ms\"}}",
                                      "json", "q.json");
  EXPECT_TRUE(quoted.ok()) << quoted.status().message();
}

TEST(PolicyLimitsTest, TomlNestedTenThousandDeepIsRefusedWithItsLine) {
  std::string key = "a";
  for (int i = 0; i < 10000; ++i) key += ".a";
  ExpectLimitError(ParsePolicy("preset = \"etcd\"\n" + key + " = 1\n", "toml", "d.toml"),
                   "d.toml:2:", "nested deeper than 16 levels");
  ExpectLimitError(ParsePolicy("preset = \"etcd\"\n\n[" + key + "]\nx = 1\n", "toml", "h.toml"),
                   "h.toml:3:", "nested deeper than 16 levels");
  // Inline arrays: toml++ stops them itself, at 256 levels.
  std::string arrays = "preset = " + std::string(10000, '[') + std::string(10000, ']') + "\n";
  EXPECT_FALSE(ParsePolicy(arrays, "toml", "i.toml").ok());
}

TEST(PolicyLimitsTest, AJsonKeyTwiceInOneTableIsAnError) {
  ExpectLimitError(
      ParsePolicy("{\"preset\": \"etcd\",\n \"preset\": \"sqlite-app\"}", "json", "k.json"),
      "k.json:2:", "key 'preset' appears twice in one table");
  // The same key in two tables is fine.
  Result<Policy> p = ParsePolicy(
      "{\"latency\": [{\"name\": \"a\", \"p99\": \"10ms\"}, {\"name\": \"b\", \"p99\": \"9ms\"}]}",
      "json", "ok.json");
  EXPECT_TRUE(p.ok()) << p.status().message();
}

TEST(PolicyLimitsTest, ASecondRuleOfOneNameIsAnErrorWhereItStands) {
  std::string two = "[[latency]]\np99 = \"10ms\"\n\n[[latency]]\np99 = \"20ms\"\n";
  ExpectLimitError(ParsePolicy(two, "toml", "t.toml"), "t.toml:4: key 'latency[1]'",
                   "a second rule named 'max_p99_fdatasync_overwrite_4096' (the first is on "
                   "line 1)");
  ExpectLimitError(ParsePolicy("preset = \"etcd\"\n[[latency]]\nname = \"etcd_wal_fsync_p99\"\n"
                               "p99 = \"1ms\"\n",
                               "toml", "p.toml"),
                   "p.toml:2:", "a second rule named 'etcd_wal_fsync_p99'");
  ExpectLimitError(
      ParsePolicy("[commits]\n\"WAL:FULL\" = 10\n\"wal:full\" = 20\n", "toml", "c.toml"),
      "c.toml:3: key 'commits.wal:full'", "a second rule named");
  ExpectLimitError(ParsePolicy("{\"rate\": [{\"name\": \"r\", \"min\": 1},\n"
                               "{\"name\": \"r\", \"min\": 2}]}",
                               "json", "r.json"),
                   "r.json:2:", "a second rule named 'r'");
}

TEST(PolicyLimitsTest, UniqueRuleNamesAcrossPresetsFilesAndFlags) {
  Result<Policy> etcd = Preset("etcd");
  ASSERT_TRUE(etcd.ok());
  Policy p = *etcd;
  EXPECT_TRUE(UniqueRuleNames(p).ok());
  Merge(p, *etcd);  // the same preset twice (a file's and a flag's): its rules once
  EXPECT_EQ(p.latency.size(), etcd->latency.size());
  EXPECT_TRUE(UniqueRuleNames(p).ok());
  Policy other;
  other.latency.push_back(etcd->latency[0]);
  other.latency[0].max_ns = 1'000'000;  // a different rule of the same name
  Merge(p, other);
  Status s = UniqueRuleNames(p);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("two rules are named 'etcd_wal_fsync_p99'"), std::string::npos)
      << s.message();
  for (const std::string& name : PresetNames()) {
    Result<Policy> preset = Preset(name);
    ASSERT_TRUE(preset.ok());
    EXPECT_TRUE(UniqueRuleNames(*preset).ok()) << name;
  }
}

TEST(PolicyLimitsTest, FailOnTakesOnlyCodesThatExist) {
  Policy p;
  EXPECT_FALSE(ParseFailOn({"barrier_disabeld"}, p).ok());
  EXPECT_FALSE(ParseFailOn({"no_such_code"}, p).ok());
  EXPECT_TRUE(p.fail_on_codes.empty());
  for (std::string_view code : model::FindingCodes()) {
    EXPECT_TRUE(ParseFailOn({std::string(code)}, p).ok()) << code;
  }
  EXPECT_EQ(p.fail_on_codes.size(), model::FindingCodes().size());
  ExpectLimitError(ParsePolicy("preset = \"etcd\"\nfail_on = [\"warn\", \"sync_tail_hevy\"]\n",
                               "toml", "f.toml"),
                   "f.toml:2: key 'fail_on'", "unknown --fail-on item 'sync_tail_hevy'");
  // The presets' own codes are registered ones.
  for (const std::string& name : PresetNames()) {
    Result<Policy> preset = Preset(name);
    ASSERT_TRUE(preset.ok());
    for (const std::string& code : preset->fail_on_codes) {
      EXPECT_TRUE(model::IsFindingCode(code)) << name << ": " << code;
    }
  }
}

// 80k keys, one a line, the unknown one last: rejected with that key's line (the reader once
// searched the text from its start for every key).
TEST(PolicyLimitsTest, EightyThousandKeysAreReadInOnePassWithExactLines) {
  std::string text = "{\"preset\": \"etcd\",\n\"commits\": {\n";
  for (int i = 0; i < 80000; ++i) text += "\"WAL:FULL" + std::to_string(i) + "\": 1,\n";
  text += "\"WAL:FULL\": 1}}\n";
  ExpectLimitError(ParsePolicy(text, "json", "big.json"), "big.json:3: key 'commits.WAL:FULL0'",
                   "synchronous level");
  std::string latency = "{\"latency\": {\"p99\": \"10ms\",\n";
  for (int i = 0; i < 80000; ++i) latency += "\"p50\": \"1ms\",\n";
  latency += "\"x\": 1}}";
  ExpectLimitError(ParsePolicy(latency, "json", "dup.json"),
                   "dup.json:3:", "key 'p50' appears twice");
  std::string unknown = "{\"latency\": {\"p99\": \"10ms\",\n";
  for (int i = 0; i < 80000; ++i) unknown += "\"name" + std::to_string(i) + "\": \"a\",\n";
  unknown += "\"x\": 1}}";
  ExpectLimitError(ParsePolicy(unknown, "json", "u.json"), "u.json:2: key 'latency.name0'",
                   "unknown key");
}

}  // namespace
}  // namespace durprobe::gate
