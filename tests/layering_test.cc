// The rooms (docs/architecture.md) include one another in one direction only, and the rooms that
// hold results, their analysis and their formats never compile against SQLite or the VFS shim.
// The build enforces the direction per top-level room (cmake/Rooms.cmake gives each library a
// view of itself and the rooms below it); this test holds the same table to CMakeLists.txt, covers
// what the build cannot see (render/'s format folders beside each other, a header no library
// compiles, a new top-level folder), and reads the includes of every header and source file of
// the rooms, compiled or not, following them through headers to SQLite; every quoted include must
// name a file it can read, so none is skipped. tests/room_headers_test.cc includes every header
// from text/ to output/ and has the compiler check that none reaches <sqlite3.h>, which catches
// SQLite reached through a path this scan does not follow (a system header).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "output/formats.h"
#include "tests/room_files.h"

namespace durprobe {
namespace {

namespace fs = std::filesystem;
using testing_support::ProjectFiles;
using testing_support::RoomOf;

struct Include {
  std::string name;
  bool system = false;  // <...>
};

// Each file is read once: the chains below reach the same headers from every file.
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
// the chain that reaches it ("model/x.cc -> sqlite_bench/y.h -> <sqlite3.h>"), or "".
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

// Each room and the rooms it links directly, bottom to top: the top-level ones as
// CMakeLists.txt declares them (durprobe_room), plus render/'s format folders, one per row of the
// format table (output/formats.cc) and named for it, which sit on render/'s shared files and
// never beside one another; output/ picks among them.
const std::map<std::string, std::vector<std::string>>& RoomDeps() {
  static const std::map<std::string, std::vector<std::string>> kDeps = [] {
    std::map<std::string, std::vector<std::string>> deps = {{"platform", {}},
                                                            {"probes", {"platform"}},
                                                            {"sqlite_bench", {"probes"}},
                                                            {"text", {"platform"}},
                                                            {"model", {"text", "sqlite_bench"}},
                                                            {"analysis", {"model"}},
                                                            {"gate", {"analysis"}},
                                                            {"codec", {"analysis"}},
                                                            {"explain", {"gate", "codec"}},
                                                            {"render", {"explain"}},
                                                            {"output", {}},
                                                            {"run", {"explain"}},
                                                            {"cli", {"run", "output"}}};
    for (const output::FormatRow& row : output::FormatTable()) {
      const std::string folder = "render/" + std::string(row.name);
      deps[folder] = {"render"};
      deps["output"].push_back(folder);
    }
    return deps;
  }();
  return kDeps;
}

// The rooms that measure and may therefore reach SQLite; every other room only reads results.
bool MayReachSqlite(const std::string& room) {
  return room == "sqlite_bench" || room == "run" || room == "cli";
}

// Every room `room` may include: itself and all the rooms below it.
std::set<std::string> Reachable(const std::string& room) {
  std::set<std::string> out = {room};
  auto it = RoomDeps().find(room);
  if (it == RoomDeps().end()) return out;
  for (const std::string& dep : it->second) {
    std::set<std::string> below = Reachable(dep);
    out.insert(below.begin(), below.end());
  }
  return out;
}

// "" when file may include header, else why not.
std::string IncludeProblem(const std::string& file, const std::string& header) {
  std::string from = RoomOf(file), to = RoomOf(header);
  if (!RoomDeps().count(from)) return file + " is in no room";
  if (!RoomDeps().count(to)) return header + " is in no room";
  if (Reachable(from).count(to)) return "";
  return file + " includes " + header + ", which " +
         (Reachable(to).count(from) ? "is above it" : "sits beside it");
}

TEST(LayeringTest, NoRoomAboveTheMeasurementReachesSqliteOrTheVfsShim) {
  fs::path root = DURPROBE_SOURCE_DIR;
  int checked = 0;
  for (const std::string& file : ProjectFiles(root)) {
    if (MayReachSqlite(RoomOf(file))) continue;
    std::set<std::string> seen;
    EXPECT_EQ(ForbiddenChain(root, file, seen), "") << RoomOf(file) << " must not reach SQLite";
    ++checked;
  }
  EXPECT_GT(checked, 250);
}

TEST(LayeringTest, EveryFileSitsInARoom) {
  fs::path root = DURPROBE_SOURCE_DIR;
  int checked = 0;
  for (const std::string& file : ProjectFiles(root)) {
    EXPECT_TRUE(RoomDeps().count(RoomOf(file))) << file << " is in no room";
    ++checked;
  }
  EXPECT_GT(checked, 400);
}

TEST(LayeringTest, IncludesPointDownTheRooms) {
  fs::path root = DURPROBE_SOURCE_DIR;
  int includes = 0;
  for (const std::string& file : ProjectFiles(root)) {
    for (const Include& inc : IncludesOf(root / file)) {
      if (inc.system || !fs::exists(root / inc.name)) continue;  // generated or outside the tree
      EXPECT_EQ(IncludeProblem(file, inc.name), "");
      ++includes;
    }
  }
  EXPECT_GT(includes, 1000);
}

// The scans above skip an include they cannot open (it would be generated, or outside the tree):
// every quoted include is a file of the tree but the generated ones named here, so no header of
// the rooms goes unread, whichever library compiles it.
TEST(LayeringTest, EveryQuotedIncludeIsAFileTheScanReads) {
  const std::set<std::string> kGenerated = {"durprobe_config.h"};
  fs::path root = DURPROBE_SOURCE_DIR;
  std::set<std::string> headers;
  for (const std::string& file : ProjectFiles(root)) {
    if (fs::path(file).extension() == ".h") headers.insert(file);
    for (const Include& inc : IncludesOf(root / file)) {
      if (inc.system || kGenerated.count(inc.name)) continue;
      EXPECT_TRUE(fs::exists(root / inc.name))
          << file << " includes \"" << inc.name << "\", which is no path from the tree's root";
    }
  }
  EXPECT_GT(headers.size(), 130u) << "every header of the rooms is read";
}

// Within these rooms a file's includes point one way: no two files (a header and its .cc
// counted as one) reach each other through their includes, so each can be read from the bottom
// up (run/: the requests and plan, the planned times, the shared steps, the phases, the two
// schedules, the executor, the plan builders). The other rooms still hold such loops.
TEST(LayeringTest, FilesOfTheOrderedRoomsIncludeEachOtherOneWay) {
  fs::path root = DURPROBE_SOURCE_DIR;
  const std::set<std::string> ordered = {"analysis", "model", "run"};
  auto module = [](const std::string& file) { return file.substr(0, file.rfind('.')); };
  std::map<std::string, std::set<std::string>> arrows;
  for (const std::string& file : ProjectFiles(root)) {
    if (!ordered.count(RoomOf(file))) continue;
    for (const Include& inc : IncludesOf(root / file)) {
      if (inc.system || !fs::exists(root / inc.name) || RoomOf(inc.name) != RoomOf(file)) continue;
      if (module(inc.name) != module(file)) arrows[module(file)].insert(module(inc.name));
    }
  }
  ASSERT_GT(arrows.size(), 25u);
  // A depth-first walk: reaching a file still on the path is a loop, named along it.
  std::map<std::string, int> state;  // 1: on the path, 2: done
  std::vector<std::string> path;
  std::function<std::string(const std::string&)> loop = [&](const std::string& m) -> std::string {
    state[m] = 1;
    path.push_back(m);
    for (const std::string& next : arrows[m]) {
      if (state[next] == 1) {
        std::string chain;
        for (auto it = std::find(path.begin(), path.end(), next); it != path.end(); ++it) {
          chain += *it + " -> ";
        }
        return chain + next;
      }
      if (state[next] == 0) {
        if (std::string found = loop(next); !found.empty()) return found;
      }
    }
    path.pop_back();
    state[m] = 2;
    return "";
  };
  for (const auto& entry : std::map<std::string, std::set<std::string>>(arrows)) {
    if (state[entry.first] == 0) {
      EXPECT_EQ(loop(entry.first), "");
    }
  }
}

// The table above is the one CMakeLists.txt builds: the same top-level rooms, each linking the
// same rooms (render/'s format folders are one library, durprobe_render).
TEST(LayeringTest, TheTableIsTheOneTheBuildLinks) {
  fs::path root = DURPROBE_SOURCE_DIR;
  std::ifstream in(root / "CMakeLists.txt");
  std::stringstream text;
  text << in.rdbuf();
  std::string cmake = text.str();
  static const std::regex kRoom(R"(durprobe_room\((\w+)(?: DEPS([\w ]*))?\))");
  std::map<std::string, std::vector<std::string>> built;
  for (std::sregex_iterator it(cmake.begin(), cmake.end(), kRoom), end; it != end; ++it) {
    std::stringstream deps((*it)[2].str());
    std::vector<std::string>& into = built[(*it)[1]];
    for (std::string dep; deps >> dep;) into.push_back(dep);
  }
  for (const auto& [room, deps] : RoomDeps()) {
    if (room.find('/') != std::string::npos || room == "cli" || room == "output") continue;
    ASSERT_TRUE(built.count(room)) << room << " is no durprobe_room in CMakeLists.txt";
    EXPECT_EQ(built[room], deps) << room;
  }
  EXPECT_EQ(built["output"], std::vector<std::string>{"render"});
  EXPECT_EQ(built.size(), RoomDeps().size() - output::kFormatCount - 1);  // formats and cli/
}

TEST(LayeringTest, TheRoomCheckSeesUpwardAndSidewaysIncludes) {
  EXPECT_EQ(IncludeProblem("render/json/a.cc", "codec/b.h"), "");
  EXPECT_EQ(IncludeProblem("codec/a.cc", "codec/b.h"), "");
  EXPECT_EQ(IncludeProblem("output/a.cc", "render/csv/b.h"), "");
  EXPECT_EQ(IncludeProblem("render/html/a.cc", "render/b.h"), "");
  EXPECT_EQ(IncludeProblem("codec/a.cc", "render/json/b.h"),
            "codec/a.cc includes render/json/b.h, which is above it");
  EXPECT_EQ(IncludeProblem("render/a.cc", "render/csv/b.h"),
            "render/a.cc includes render/csv/b.h, which is above it");
  EXPECT_EQ(IncludeProblem("render/html/a.cc", "render/console/b.h"),
            "render/html/a.cc includes render/console/b.h, which sits beside it");
  EXPECT_EQ(IncludeProblem("gate/a.cc", "codec/b.h"),
            "gate/a.cc includes codec/b.h, which sits beside it");
  EXPECT_EQ(IncludeProblem("run/a.cc", "render/b.h"),
            "run/a.cc includes render/b.h, which sits beside it");
  EXPECT_EQ(IncludeProblem("platform/a.cc", "text/b.h"),
            "platform/a.cc includes text/b.h, which is above it");
  EXPECT_EQ(IncludeProblem("report/a.cc", "text/b.h"), "report/a.cc is in no room");
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
}  // namespace durprobe
