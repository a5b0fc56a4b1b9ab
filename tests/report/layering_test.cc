// report/ formats and analyses results; it must not compile against SQLite or the VFS shim.
// Two checks: every report/ header is included here and SQLITE_VERSION (defined by <sqlite3.h>)
// must stay undefined, so this file fails to compile if any of them pulls SQLite in; and every
// file under report/ (sources too) is walked through its quoted includes, so a .cc that includes
// <sqlite3.h> or sqlite_bench/counting_vfs.h, directly or through another header, fails the test.
#include "report/compare_analysis.h"
#include "report/compare_reporters.h"
#include "report/console_reporter.h"
#include "report/context.h"
#include "report/diff_analysis.h"
#include "report/diff_console.h"
#include "report/diff_probes.h"
#include "report/json_fields.h"
#include "report/json_reader.h"
#include "report/json_reader_sections.h"
#include "report/json_reporter.h"
#include "report/mount_console.h"
#include "report/mount_findings.h"
#include "report/mount_json.h"
#include "report/plausibility.h"
#include "report/report.h"
#include "report/reporter.h"
#include "report/sqlite_console.h"
#include "report/sqlite_correlation.h"
#include "report/sqlite_json.h"
#include "report/sqlite_model.h"
#include "report/sqlite_workloads_console.h"
#include "report/sqlite_workloads_json.h"
#include "report/units.h"

#ifdef SQLITE_VERSION
#error "a report/ header includes <sqlite3.h>: report/ must read plain result structs only"
#endif

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace durprobe::report {
namespace {

namespace fs = std::filesystem;

struct Include {
  std::string name;
  bool system = false;  // <...>
};

std::vector<Include> IncludesOf(const fs::path& file) {
  static const std::regex kInclude(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  std::vector<Include> out;
  std::ifstream in(file);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, kInclude)) out.push_back({m[2], m[1] == "<"});
  }
  return out;
}

// The first forbidden include reachable from `file` through the project's quoted includes, as
// the chain that reaches it ("report/x.cc -> sqlite_bench/y.h -> <sqlite3.h>"), or "".
std::string ForbiddenChain(const fs::path& root, const std::string& file,
                           std::set<std::string>& seen) {
  if (!seen.insert(file).second) return "";
  for (const Include& inc : IncludesOf(root / file)) {
    if (inc.name == "sqlite3.h" || inc.name == "sqlite_bench/counting_vfs.h") {
      return file + " -> " + (inc.system ? "<" + inc.name + ">" : inc.name);
    }
    if (inc.system || !fs::exists(root / inc.name)) continue;  // generated or outside the tree
    std::string below = ForbiddenChain(root, inc.name, seen);
    if (!below.empty()) return file + " -> " + below;
  }
  return "";
}

TEST(LayeringTest, NoReportFileReachesSqliteOrTheVfsShim) {
  fs::path root = DURPROBE_SOURCE_DIR;
  int checked = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(root / "report")) {
    std::string ext = entry.path().extension();
    if (ext != ".h" && ext != ".cc") continue;
    std::set<std::string> seen;
    std::string file = "report/" + entry.path().filename().string();
    EXPECT_EQ(ForbiddenChain(root, file, seen), "") << "report/ must not include SQLite";
    ++checked;
  }
  EXPECT_GT(checked, 20);
}

TEST(LayeringTest, TheCheckSeesAForbiddenIncludeThroughAHeader) {
  // The commit benchmark reaches the shim through its own header.
  fs::path root = DURPROBE_SOURCE_DIR;
  std::set<std::string> seen;
  EXPECT_EQ(ForbiddenChain(root, "sqlite_bench/commit_bench.cc", seen),
            "sqlite_bench/commit_bench.cc -> sqlite_bench/commit_bench.h -> "
            "sqlite_bench/counting_vfs.h");
}

}  // namespace
}  // namespace durprobe::report
