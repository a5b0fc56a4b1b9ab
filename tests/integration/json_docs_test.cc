// docs/json.md and real reports agree both ways: every key a real report carries is documented
// (a key added to a writer without a line in the docs fails here), and every key the report
// document's tables list appears in a real report, unless its row says when it is absent (a key
// removed from a writer but left in the docs fails here).
#include <gtest/gtest.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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

std::string JsonMd() {
  return testing_support::Slurp(std::string(DURPROBE_SOURCE_DIR) + "/docs/json.md");
}

// The keys of a real `run` report (probes, SQLite, mount).
std::set<std::string> RunReportKeys() {
  testing_support::TempDir dir;
  testing_support::CliRun r = testing_support::RunDurprobe(
      "run --budget 2s --sizes 4k --batch 1,10 --synchronous full,normal --json - " + dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> keys;
  if (r.exit_code == 0) CollectKeys(nlohmann::json::parse(r.out), keys);
  return keys;
}

// A documented key: its section, and whether its row says when it is absent.
struct DocumentedKey {
  std::string key, section;
  bool conditional = false;
};

// The sections of docs/json.md whose tables list the report document's keys (key first).
const std::vector<std::string> kReportSections = {"## Top level",
                                                  "## `context`",
                                                  "## `targets[]`",
                                                  "## `targets[].probes[]`",
                                                  "## `checks[]`",
                                                  "## `context.sqlite`",
                                                  "## `targets[].sqlite[]`",
                                                  "## `targets[].mount`",
                                                  "### `targets[].mount.device`"};

// How a row says its key is not in every report (docs/json.md states the convention).
bool SaysWhenAbsent(const std::string& row) {
  for (const char* mark :
       {"present only", "absent when", "absent where", "absent in", "absent otherwise"}) {
    if (row.find(mark) != std::string::npos) return true;
  }
  return false;
}

// Every `key` of the first column of every table row in the report sections.
std::vector<DocumentedKey> DocumentedReportKeys(const std::string& docs) {
  std::vector<DocumentedKey> out;
  std::istringstream in(docs);
  std::string section;
  bool in_report_section = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("#", 0) == 0) {
      section = line;
      in_report_section = false;
      for (const std::string& s : kReportSections) {
        in_report_section |= line.rfind(s, 0) == 0;
      }
      continue;
    }
    if (!in_report_section || line.rfind("| `", 0) != 0) continue;
    std::string first = line.substr(1, line.find('|', 1) - 1);
    for (std::size_t at = first.find('`'); at != std::string::npos;) {
      std::size_t end = first.find('`', at + 1);
      if (end == std::string::npos) break;
      out.push_back({first.substr(at + 1, end - at - 1), section, SaysWhenAbsent(line)});
      at = first.find('`', end + 1);
    }
  }
  return out;
}

TEST(JsonDocsTest, EveryKeyOfARealReportIsInDocsJsonMd) {
  std::set<std::string> keys = RunReportKeys();
  ASSERT_GT(keys.size(), 100u);
  std::string docs = JsonMd();
  ASSERT_FALSE(docs.empty());
  for (const std::string& key : keys) {
    EXPECT_NE(docs.find("`" + key + "`"), std::string::npos)
        << "key '" << key << "' is not documented in docs/json.md";
  }
}

// The reverse: a key the report tables list is in a real report (run, and check for checks[]),
// or its row says when it is absent.
TEST(JsonDocsTest, EveryDocumentedReportKeyIsInARealReportOrSaysWhenItIsAbsent) {
  std::set<std::string> keys = RunReportKeys();
  testing_support::TempDir dir;
  testing_support::CliRun check = testing_support::RunDurprobe(
      "check --budget 1s --max-sync-p50 fdatasync:overwrite:4k=59m --quiet --json - " + dir.path());
  ASSERT_EQ(check.exit_code, 0) << check.err;
  CollectKeys(nlohmann::json::parse(check.out), keys);
  std::vector<DocumentedKey> documented = DocumentedReportKeys(JsonMd());
  ASSERT_GT(documented.size(), 80u);
  // The device table needs a block device under the temporary directory (not a tmpfs /tmp).
  bool has_device = keys.count("disk") == 1;
  if (!has_device) std::cout << "note: no block device under " << dir.path() << "\n";
  for (const DocumentedKey& d : documented) {
    if (d.conditional) continue;
    if (!has_device && d.section.find("mount.device") != std::string::npos) continue;
    EXPECT_EQ(keys.count(d.key), 1u)
        << "docs/json.md lists '" << d.key << "' under " << d.section
        << " but no real report has it: remove it, or say in its row when it is absent "
           "(\"present only when ...\" / \"absent when ...\")";
  }
}

}  // namespace
}  // namespace durprobe
