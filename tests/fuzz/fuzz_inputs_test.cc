// Replays every input the fuzzers start from (tests/fixtures/fuzz/<target>/, with each crash the
// fuzzers found kept there as crash-*) through the same checks the fuzz targets make
// (fuzz_checks.h), so the normal and sanitizer builds keep them fixed without clang or libFuzzer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "platform/platform.h"
#include "tests/fixtures.h"
#include "tests/fuzz/fuzz_checks.h"

namespace durprobe::fuzz {
namespace {

using testing_support::FixturePath;

// Every file directly in the fixture directory dir, as (name, content).
std::vector<std::pair<std::string, std::string>> Inputs(const std::string& dir) {
  platform::Platform& p = platform::Default();
  Result<std::vector<std::string>> names = p.ListDirectory(FixturePath(dir));
  EXPECT_TRUE(names.ok()) << dir << ": " << names.status().message();
  std::vector<std::pair<std::string, std::string>> out;
  if (!names.ok()) return out;
  for (const std::string& name : *names) {
    std::string path = FixturePath(dir + "/" + name);
    if (p.KindOf(path) != platform::PathKind::kFile) continue;
    Result<std::string> text = p.ReadTextFile(path, 1 << 20);
    EXPECT_TRUE(text.ok()) << path << ": " << text.status().message();
    if (text.ok()) out.emplace_back(dir + "/" + name, *text);
  }
  return out;
}

template <typename Check>
void ExpectAllHandled(const std::vector<std::string>& dirs, Check check, std::size_t at_least) {
  std::size_t n = 0;
  for (const std::string& dir : dirs) {
    for (const auto& [name, text] : Inputs(dir)) {
      EXPECT_EQ(check(text), "") << name;
      ++n;
    }
  }
  EXPECT_GE(n, at_least) << "the seed inputs are missing";
}

TEST(FuzzInputsTest, ReportJsonSeedsAndCrashes) {
  ExpectAllHandled({"diff", "fuzz/report_json"}, CheckReportJson, 8);
}

TEST(FuzzInputsTest, MountInfoSeedsAndCrashes) {
  ExpectAllHandled({"mountinfo", "fuzz/mountinfo"}, CheckMountInfo, 4);
}

TEST(FuzzInputsTest, PolicySeedsAndCrashes) { ExpectAllHandled({"fuzz/policy"}, CheckPolicy, 6); }

TEST(FuzzInputsTest, UnitsSeedsAndCrashes) { ExpectAllHandled({"fuzz/units"}, CheckUnits, 14); }

TEST(FuzzInputsTest, WitnessProtocolSeedsAndCrashes) {
  ExpectAllHandled({"fuzz/witness_protocol"}, CheckWitnessProtocol, 4);
}

}  // namespace
}  // namespace durprobe::fuzz
