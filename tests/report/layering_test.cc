// report/ formats and analyses results; it must not compile against SQLite or the VFS shim, and
// its rooms include one another in one direction only (docs/architecture.md). Three checks:
// every report/ header is included here and SQLITE_VERSION (defined by <sqlite3.h>) must stay
// undefined, so this file fails to compile if any of them pulls SQLite in; every file under
// report/ (sources too, every sub-folder) is walked through its quoted includes, so a .cc that
// includes <sqlite3.h> or sqlite_bench/counting_vfs.h, directly or through another header, fails
// the test; and every quoted include of a report/ file must point down the rooms' order.
#include "report/analysis/drift.h"
#include "report/analysis/durability_risk.h"
#include "report/analysis/mount_findings.h"
#include "report/analysis/plausibility.h"
#include "report/analysis/probe_findings.h"
#include "report/analysis/sqlite_correlation.h"
#include "report/check/facts.h"
#include "report/check/policy.h"
#include "report/check/policy_document.h"
#include "report/check/presets.h"
#include "report/check/rules.h"
#include "report/check/wal_sync_method.h"
#include "report/codec/check_json.h"
#include "report/codec/crashsim_json.h"
#include "report/codec/json_fields.h"
#include "report/codec/json_reader.h"
#include "report/codec/json_reader_sections.h"
#include "report/codec/mount_json.h"
#include "report/codec/mount_json_reader.h"
#include "report/codec/report_json.h"
#include "report/codec/sqlite_json.h"
#include "report/codec/sqlite_json_reader.h"
#include "report/codec/sqlite_workloads_json.h"
#include "report/codec/sqlite_workloads_json_reader.h"
#include "report/documents/compare_analysis.h"
#include "report/documents/diff_analysis.h"
#include "report/documents/diff_differences.h"
#include "report/documents/diff_probes.h"
#include "report/documents/summary.h"
#include "report/format/ci/junit_reporter.h"
#include "report/format/ci/prometheus_reporter.h"
#include "report/format/console/check_console.h"
#include "report/format/console/compare_console.h"
#include "report/format/console/console_reporter.h"
#include "report/format/console/crashsim_console.h"
#include "report/format/console/diff_console.h"
#include "report/format/console/live_console.h"
#include "report/format/console/mount_console.h"
#include "report/format/console/progress_console.h"
#include "report/format/console/sqlite_console.h"
#include "report/format/console/sqlite_workloads_console.h"
#include "report/format/console/summary_console.h"
#include "report/format/flat/csv_reporter.h"
#include "report/format/flat/flat_rows.h"
#include "report/format/flat/markdown_reporter.h"
#include "report/format/flat/summary_csv.h"
#include "report/format/html/html_compare.h"
#include "report/format/html/html_page.h"
#include "report/format/html/html_probes.h"
#include "report/format/html/html_reporter.h"
#include "report/format/html/html_sqlite.h"
#include "report/format/html/html_text.h"
#include "report/format/html/html_timeline.h"
#include "report/format/html/svg_bars.h"
#include "report/format/html/svg_plot.h"
#include "report/format/html/svg_scale.h"
#include "report/format/html/svg_shared.h"
#include "report/format/json/compare_json.h"
#include "report/format/json/diff_json.h"
#include "report/format/json/json_reporter.h"
#include "report/format/json/summary_json.h"
#include "report/format/mount_rows.h"
#include "report/format/reporter.h"
#include "report/model/labels.h"
#include "report/model/percentiles.h"
#include "report/model/report.h"
#include "report/model/run_events.h"
#include "report/model/sqlite_model.h"
#include "report/output/output.h"
#include "report/output/reporter_factory.h"
#include "report/text/table.h"
#include "report/text/units.h"
#include "report/text/utf8.h"
#include "report/text/xml_escape.h"

#ifdef SQLITE_VERSION
#error "a report/ header includes <sqlite3.h>: report/ must read plain result structs only"
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
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

// Each file is read once: the chains below reach the same headers from every report file.
// The regex sees only lines that name an include (it is slow, at -O0 most of all).
const std::vector<Include>& IncludesOf(const fs::path& file) {
  static const std::regex kInclude(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  static std::map<std::string, std::vector<Include>> read;
  auto [it, fresh] = read.try_emplace(file.string());
  if (!fresh) return it->second;
  std::ifstream in(file);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (line.find("include") == std::string::npos) continue;
    if (std::regex_search(line, m, kInclude)) it->second.push_back({m[2], m[1] == "<"});
  }
  return it->second;
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

// Every source file under report/, as "report/ROOM/NAME", in a stable order.
std::vector<std::string> ReportFiles(const fs::path& root) {
  std::vector<std::string> files;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root / "report")) {
    std::string ext = entry.path().extension();
    if (ext == ".h" || ext == ".cc") files.push_back(fs::relative(entry.path(), root).string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The rooms of report/ in the order they may include each other (docs/architecture.md): a
// file includes its own room and the rooms ranked below it, never one ranked above or beside.
const std::map<std::string, int>& RoomRanks() {
  static const std::map<std::string, int> kRanks = {
      {"report/text", 0},        {"report/model", 1},          {"report/analysis", 2},
      {"report/check", 3},       {"report/codec", 3},          {"report/documents", 4},
      {"report/format", 5},      {"report/format/console", 6}, {"report/format/json", 6},
      {"report/format/flat", 6}, {"report/format/ci", 6},      {"report/format/html", 6},
      {"report/output", 7}};
  return kRanks;
}

std::string RoomOf(const std::string& file) { return fs::path(file).parent_path().string(); }

// "" when file may include header, else why not.
std::string IncludeProblem(const std::string& file, const std::string& header) {
  const std::map<std::string, int>& ranks = RoomRanks();
  std::string from = RoomOf(file), to = RoomOf(header);
  if (from == to) return "";
  auto f = ranks.find(from), t = ranks.find(to);
  if (f == ranks.end()) return file + " is in no room of report/";
  if (t == ranks.end()) return header + " is in no room of report/";
  if (t->second < f->second) return "";
  return file + " includes " + header + ", which " +
         (t->second == f->second ? "sits beside it" : "is above it");
}

TEST(LayeringTest, NoReportFileReachesSqliteOrTheVfsShim) {
  fs::path root = DURPROBE_SOURCE_DIR;
  int checked = 0;
  for (const std::string& file : ReportFiles(root)) {
    std::set<std::string> seen;
    EXPECT_EQ(ForbiddenChain(root, file, seen), "") << "report/ must not include SQLite";
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

TEST(LayeringTest, EveryReportFileSitsInARoom) {
  fs::path root = DURPROBE_SOURCE_DIR;
  for (const std::string& file : ReportFiles(root)) {
    EXPECT_TRUE(RoomRanks().count(RoomOf(file))) << file << " is in no room of report/";
  }
}

TEST(LayeringTest, IncludesPointDownTheRooms) {
  fs::path root = DURPROBE_SOURCE_DIR;
  int includes = 0;
  for (const std::string& file : ReportFiles(root)) {
    for (const Include& inc : IncludesOf(root / file)) {
      if (inc.system || inc.name.rfind("report/", 0) != 0) continue;
      EXPECT_EQ(IncludeProblem(file, inc.name), "");
      ++includes;
    }
  }
  EXPECT_GT(includes, 200);
}

TEST(LayeringTest, TheRoomCheckSeesUpwardAndSidewaysIncludes) {
  EXPECT_EQ(IncludeProblem("report/format/json/a.cc", "report/codec/b.h"), "");
  EXPECT_EQ(IncludeProblem("report/codec/a.cc", "report/codec/b.h"), "");
  EXPECT_EQ(IncludeProblem("report/codec/a.cc", "report/format/json/b.h"),
            "report/codec/a.cc includes report/format/json/b.h, which is above it");
  EXPECT_EQ(IncludeProblem("report/format/html/a.cc", "report/format/console/b.h"),
            "report/format/html/a.cc includes report/format/console/b.h, which sits beside it");
  EXPECT_EQ(IncludeProblem("report/check/a.cc", "report/codec/b.h"),
            "report/check/a.cc includes report/codec/b.h, which sits beside it");
  EXPECT_EQ(IncludeProblem("report/a.cc", "report/text/b.h"),
            "report/a.cc is in no room of report/");
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
