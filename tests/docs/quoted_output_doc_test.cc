// Issue 35 item 4: where the docs quote what durprobe prints, the quote is held to the code that
// prints it, so a change of words fails here instead of leaving the page stale.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "gate/policy.h"
#include "gate/presets.h"
#include "model/labels.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe {
namespace {

std::string ReadDoc(const std::string& name) {
  std::ifstream in(std::string(DURPROBE_SOURCE_DIR) + "/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The page's text with each line's leading spaces and its line breaks folded to one space, so a
// quote wrapped as the console wraps it reads as one line.
std::string Folded(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

TEST(QuotedOutputDocTest, ErrorsMdQuotesThePolicysValidKeys) {
  Result<gate::Policy> p = gate::ParsePolicy("colour = 1\n", "toml", "gate.toml");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(ReadDoc("docs/errors.md").find("`" + p.status().message() + "`"), std::string::npos)
      << p.status().message();
}

TEST(QuotedOutputDocTest, StartMdNamesTheEtcdProbeThePresetMeasures) {
  Result<gate::Policy> etcd = gate::Preset("etcd");
  ASSERT_TRUE(etcd.ok() && !etcd->latency.empty());
  const std::string said =
      "etcd's WAL probe (" + model::ProbeLabel(etcd->latency.front().spec) + ") did not run here";
  EXPECT_NE(Folded(ReadDoc("docs/start.md")).find(said), std::string::npos) << said;
  // summarize's row names it as "primitive pattern bytes".
  const std::string row =
      "`fdatasync preallocated " + std::to_string(etcd->latency.front().spec.write_size) + "`";
  EXPECT_NE(Folded(ReadDoc("docs/provisioning.md")).find(row), std::string::npos) << row;
}

TEST(QuotedOutputDocTest, SqliteMdQuotesDeleteFullsRisk) {
  const std::string risk(sqlite_bench::PowerLossRisk(sqlite_bench::JournalMode::kDelete,
                                                     sqlite_bench::Synchronous::kFull)
                             .summary);
  std::string page = ReadDoc("docs/sqlite.md");
  std::size_t row = page.find("\nDELETE   FULL       1  reused       87.6");
  ASSERT_NE(row, std::string::npos);
  std::string line = page.substr(row + 1, page.find('\n', row + 1) - row - 1);
  EXPECT_EQ(line.substr(line.size() - risk.size()), risk) << line;
}

}  // namespace
}  // namespace durprobe
