// One list of every finding code: it equals the codes docs/findings.md documents and the named
// constants of model/finding_codes.h, and the sources spell a code only through those constants.
#include "model/finding_codes.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>

namespace durprobe::model {
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

// The named constants of model/finding_codes.h are the list, each once.
TEST(FindingCodesTest, TheNamedConstantsAreTheList) {
  std::string header = ReadSource(std::string(DURPROBE_SOURCE_DIR) + "/model/finding_codes.h");
  std::regex constant(R"re(inline constexpr char k[A-Za-z0-9]+\[\] = "([a-z0-9_]+)";)re");
  std::set<std::string> named;
  std::size_t n = 0;
  for (std::sregex_iterator it(header.begin(), header.end(), constant), end; it != end; ++it) {
    named.insert((*it)[1]);
    ++n;
  }
  EXPECT_EQ(n, FindingCodes().size());
  EXPECT_EQ(named, Registry());
}

// A code is spelt once: every source raises and compares findings through the constants, so a
// typo fails to compile. No source outside model/finding_codes.{h,cc} holds a code as a string
// literal, and no finding is raised with a literal code.
TEST(FindingCodesTest, NoSourceSpellsACodeAsALiteral) {
  // A cause key that happens to share a finding code's spelling (explain/cause_table.h).
  const std::set<std::pair<std::string, std::string>> other_meaning = {
      {"explain/cause_table.cc", "sync_mount"}};
  std::regex raised_with_literal(R"re(Severity::k[A-Za-z]+,\s*")re");
  std::regex raised_with_constant(R"re(Severity::k[A-Za-z]+,\s*(model::)?codes::k)re");
  const std::filesystem::path root(DURPROBE_SOURCE_DIR);
  std::size_t raises = 0;
  for (const char* dir : {"platform", "probes", "sqlite_bench", "text", "model", "analysis", "gate",
                          "codec", "explain", "render", "output", "run", "cli"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / dir)) {
      std::string ext = entry.path().extension().string();
      if (ext != ".cc" && ext != ".h") continue;
      std::string file = std::filesystem::relative(entry.path(), root).generic_string();
      if (file == "model/finding_codes.h" || file == "model/finding_codes.cc") continue;
      std::string text = ReadSource(entry.path());
      for (std::string_view code : FindingCodes()) {
        if (other_meaning.count({file, std::string(code)}) > 0) continue;
        EXPECT_EQ(text.find("\"" + std::string(code) + "\""), std::string::npos)
            << file << " spells " << code << " as a literal: use model::codes::";
      }
      EXPECT_FALSE(std::regex_search(text, raised_with_literal))
          << file << " raises a finding with a literal code";
      raises += static_cast<std::size_t>(
          std::distance(std::sregex_iterator(text.begin(), text.end(), raised_with_constant),
                        std::sregex_iterator()));
    }
  }
  EXPECT_GT(raises, 20u);  // the patterns still find the rules
}

}  // namespace
}  // namespace durprobe::model
