// Each room is a namespace (docs/architecture.md): a file of text/ opens durprobe::text, one of
// render/console/ durprobe::render::console, so a call says which room it opens (model::Target,
// text::ParseSize). Every namespace a source file of the rooms opens, nested ones spelt out in
// full, is its room's or one below it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/room_files.h"

namespace durprobe {
namespace {

// The namespace of a room as RoomOf names it: "render/console" -> "durprobe::render::console".
std::string RoomNamespace(const std::string& room) {
  std::string ns = "durprobe::";
  for (char c : room) ns += c == '/' ? std::string("::") : std::string(1, c);
  return ns;
}

// The files that open a namespace other than their room's, and which: Status and Result, the
// vocabulary every room speaks, sit in durprobe itself; static_fmt.cc emits fmt's own functions
// for the static binary (cmake/Static.cmake), in fmt's namespace and its file's own.
const std::set<std::pair<std::string, std::string>> kOutsideTheirRoom = {
    {"platform/status.h", "durprobe"},
    {"platform/status.cc", "durprobe"},
    {"platform/static_fmt.cc", "fmt::detail"},
    {"platform/static_fmt.cc", "(anonymous)"}};

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `source` with its comments, string and character literals blanked out, each byte that is not
// a line break turned into a space, so the braces and words left are the code's.
std::string CodeOnly(const std::string& source) {
  std::string code = source;
  std::size_t i = 0, n = source.size();
  auto blank = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < std::min(to, n); ++k) {
      if (code[k] != '\n') code[k] = ' ';
    }
  };
  while (i < n) {
    char c = source[i];
    std::size_t end = i + 1;
    if (source.compare(i, 2, "//") == 0) {
      end = std::min(source.find('\n', i), n);
    } else if (source.compare(i, 2, "/*") == 0) {
      end = std::min(source.find("*/", i + 2), n - 2) + 2;
    } else if (c == 'R' && i + 1 < n && source[i + 1] == '"' &&
               (i == 0 || !IsWordChar(source[i - 1]))) {
      std::size_t open = std::min(source.find('(', i + 2), n);
      std::string close = ")" + source.substr(i + 2, open - i - 2) + "\"";
      end = std::min(source.find(close, open), n - close.size()) + close.size();
    } else if (c == '"' || c == '\'') {
      for (end = i + 1; end < n && source[end] != c; ++end) {
        if (source[end] == '\\') ++end;
      }
      ++end;
    } else {
      ++i;
      continue;
    }
    blank(i, end);
    i = end;
  }
  return code;
}

struct OpenedNamespace {
  // In full from the top: "durprobe::model::codes", "durprobe::text::(anonymous)".
  std::string name;
  std::string body;  // the code between its braces
};

// Each namespace `source` opens, nested ones spelt out in full, past comments and literals.
std::vector<OpenedNamespace> OpenedNamespaces(const std::string& source) {
  const std::string code = CodeOnly(source);
  std::vector<OpenedNamespace> opened;
  // One per open brace: the index in `opened` of the namespace it opens, or -1 for any other.
  std::vector<long> scopes;
  std::vector<std::size_t> body_start;
  std::size_t i = 0, n = code.size();
  while (i < n) {
    char c = code[i];
    if (c == '{') {
      scopes.push_back(-1);
      body_start.push_back(i + 1);
      ++i;
    } else if (c == '}') {
      if (!scopes.empty()) {
        if (scopes.back() >= 0) {
          opened[static_cast<std::size_t>(scopes.back())].body =
              code.substr(body_start.back(), i - body_start.back());
        }
        scopes.pop_back();
        body_start.pop_back();
      }
      ++i;
    } else if (code.compare(i, 9, "namespace") == 0 && (i == 0 || !IsWordChar(code[i - 1])) &&
               (i + 9 == n || !IsWordChar(code[i + 9]))) {
      std::size_t j = i + 9;
      while (j < n && std::isspace(static_cast<unsigned char>(code[j]))) ++j;
      std::size_t name_start = j;
      while (j < n && (IsWordChar(code[j]) || code[j] == ':')) ++j;
      std::string name = code.substr(name_start, j - name_start);
      while (j < n && std::isspace(static_cast<unsigned char>(code[j]))) ++j;
      if (j < n && code[j] == '{') {  // not an alias (=) or a using-directive's name
        std::string outer;
        for (long k : scopes) {
          if (k >= 0) outer = opened[static_cast<std::size_t>(k)].name;
        }
        opened.push_back(
            {(outer.empty() ? "" : outer + "::") + (name.empty() ? "(anonymous)" : name), ""});
        scopes.push_back(static_cast<long>(opened.size() - 1));
        body_start.push_back(j + 1);
        ++j;
      }
      i = j;
    } else {
      ++i;
    }
  }
  return opened;
}

// Only declarations of another room's types ("struct Diff;"), which a header may name without
// including them.
bool OnlyForwardDeclarations(const std::string& body) {
  static const std::regex kForward(R"(^(\s*(struct|class)\s+\w+\s*;)+\s*$)");
  return std::regex_match(body, kForward);
}

// "" when every namespace `file` opens is its room's or below it, else the first that is not.
std::string NamespaceProblem(const std::string& file, const std::string& source) {
  const std::string room = RoomNamespace(testing_support::RoomOf(file));
  for (const OpenedNamespace& ns : OpenedNamespaces(source)) {
    if (ns.name == room || ns.name.rfind(room + "::", 0) == 0) continue;
    if (kOutsideTheirRoom.count({file, ns.name})) continue;
    if (OnlyForwardDeclarations(ns.body)) continue;
    return file + " opens namespace " + ns.name + ", not its room's " + room;
  }
  return "";
}

TEST(RoomNamespacesTest, EveryFileOpensOnlyItsRoomsNamespace) {
  std::filesystem::path root = DURPROBE_SOURCE_DIR;
  int checked = 0;
  for (const std::string& file : testing_support::ProjectFiles(root)) {
    std::ifstream in(root / file);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(NamespaceProblem(file, text.str()), "");
    ++checked;
  }
  EXPECT_GT(checked, 400);
}

TEST(RoomNamespacesTest, TheScanSpellsNestedNamespacesOutAndSkipsCommentsAndLiterals) {
  const std::string source = R"src(
// namespace durprobe::report {
namespace durprobe::model {
namespace codes {
const char* kText = "namespace durprobe::report {";
}  // namespace codes
namespace {
struct S { int x{'{'}; };
}
namespace alias = durprobe::text;
}  // namespace durprobe::model
)src";
  std::vector<std::string> names;
  for (const OpenedNamespace& ns : OpenedNamespaces(source)) names.push_back(ns.name);
  EXPECT_EQ(names, (std::vector<std::string>{"durprobe::model", "durprobe::model::codes",
                                             "durprobe::model::(anonymous)"}));
  EXPECT_EQ(NamespaceProblem("model/a.h", source), "");
  EXPECT_EQ(NamespaceProblem("render/console/a.cc", "namespace durprobe::render::console {}"), "");
  EXPECT_EQ(NamespaceProblem("render/console/a.cc", "namespace durprobe::render {}"),
            "render/console/a.cc opens namespace durprobe::render, not its room's "
            "durprobe::render::console");
  EXPECT_EQ(NamespaceProblem("gate/a.cc", "namespace durprobe { namespace text {} }"),
            "gate/a.cc opens namespace durprobe, not its room's durprobe::gate");
  EXPECT_EQ(NamespaceProblem("text/a.h", "namespace durprobe {}"),
            "text/a.h opens namespace durprobe, not its room's durprobe::text");
  // A room below may be named by its types' declarations alone, never given a definition.
  EXPECT_EQ(NamespaceProblem("render/a.h", "namespace durprobe::explain {\nstruct Diff;\n}"), "");
  EXPECT_EQ(NamespaceProblem("render/a.h", "namespace durprobe::explain {\nstruct Diff {};\n}"),
            "render/a.h opens namespace durprobe::explain, not its room's durprobe::render");
}

}  // namespace
}  // namespace durprobe
