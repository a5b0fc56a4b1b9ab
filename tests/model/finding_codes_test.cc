// One list of every finding code: it equals the codes docs/findings.md documents, and every code
// the sources raise (`{Severity::kX, "code", ...}`) is in it.
#include "model/finding_codes.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace durprobe::report {
namespace {

std::string ReadSource(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::set<std::string> Registry() {
  std::set<std::string> codes;
  for (std::string_view c : FindingCodes()) codes.insert(std::string(c));
  return codes;
}

TEST(FindingCodesTest, EachCodeOnce) {
  EXPECT_EQ(Registry().size(), FindingCodes().size());
  EXPECT_TRUE(IsFindingCode("barrier_disabled"));
  EXPECT_FALSE(IsFindingCode("barrier_disabeld"));
  EXPECT_FALSE(IsFindingCode(""));
}

TEST(FindingCodesTest, EqualsTheCodesDocsFindingsMdDocuments) {
  std::string page = ReadSource(std::string(DURPROBE_SOURCE_DIR) + "/docs/findings.md");
  ASSERT_FALSE(page.empty());
  std::set<std::string> documented;
  std::regex row(R"(\n\| `([a-z0-9_]+)` \|)");
  for (std::sregex_iterator it(page.begin(), page.end(), row), end; it != end; ++it) {
    documented.insert((*it)[1]);
  }
  EXPECT_EQ(documented, Registry());
}

TEST(FindingCodesTest, EveryCodeTheSourcesRaiseIsRegistered) {
  std::regex raised(R"re(Severity::k[A-Za-z]+,\s*"([a-z0-9_]+)")re");
  std::set<std::string> found;
  for (const char* dir : {"platform", "probes", "sqlite_bench", "text", "model", "analysis", "gate",
                          "codec", "explain", "render", "output", "run", "cli"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(
             std::filesystem::path(DURPROBE_SOURCE_DIR) / dir)) {
      if (entry.path().extension() != ".cc") continue;
      std::string text = ReadSource(entry.path());
      for (std::sregex_iterator it(text.begin(), text.end(), raised), end; it != end; ++it) {
        found.insert((*it)[1]);
        EXPECT_TRUE(IsFindingCode((*it)[1].str())) << (*it)[1] << " in " << entry.path();
      }
    }
  }
  EXPECT_GT(found.size(), 20u);  // the pattern still finds the rules
}

}  // namespace
}  // namespace durprobe::report
