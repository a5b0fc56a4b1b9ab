// Every `durprobe ...` line in a fenced code block of README.md and docs/*.md, run as written, so
// a document cannot show a command, option or value that does not exist. Measuring commands get
// --dry-run (the plan is printed, nothing measured); inspect, diff, report, summarize, clean and
// help run for real on temporary directories and fixture reports. A synopsis line is expanded:
// brackets dropped, PATH/FILE/COMMAND and the example paths replaced, each `a|b` alternative run
// on its own line. A command followed in its block by `durprobe: error:` lines must fail with
// exit 2 and exactly that message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "output/formats.h"
#include "platform/platform.h"
#include "tests/cli_runner.h"
#include "tests/fixtures.h"
#include "tests/test_dirs.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::TempDir;

struct DocCommand {
  std::string where;                // "docs/sqlite.md:13"
  std::string text;                 // the line as the document shows it
  std::vector<std::string> words;   // after "durprobe", before a comment or a description
  std::vector<std::string> errors;  // the "durprobe: error: ..." lines shown under it
};

std::string Read(const std::string& path) {
  Result<std::string> text = platform::Default().ReadTextFile(path, 1 << 20);
  EXPECT_TRUE(text.ok()) << path;
  return text.ok() ? *text : std::string();
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Shell words, single quotes removed; stops at a comment ("# ...") or at a run of three spaces
// (a synopsis's description column).
std::vector<std::string> Words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false, quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '\'')
        quoted = false;
      else
        word += c;
      continue;
    }
    if (c == ' ') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
      if (line.compare(i, 3, "   ") == 0) break;
      continue;
    }
    if (c == '#' && !in_word) break;
    in_word = true;
    if (c == '\'')
      quoted = true;
    else
      word += c;
  }
  if (in_word) words.push_back(word);
  return words;
}

// The command lines of one markdown file.
std::vector<DocCommand> CommandsIn(const std::string& relative) {
  std::vector<std::string> lines = Lines(Read(std::string(DURPROBE_SOURCE_DIR) + "/" + relative));
  std::vector<DocCommand> out;
  bool in_block = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("```", 0) == 0) {
      in_block = !in_block;
      continue;
    }
    if (!in_block) continue;
    std::vector<std::string> words = Words(lines[i]);
    if (!words.empty() && words[0].back() == '$') words.erase(words.begin());  // "hostA$"
    if (words.empty() || words[0] != "durprobe") continue;
    DocCommand c{relative + ":" + std::to_string(i + 1), lines[i], {}, {}};
    c.words.assign(words.begin() + 1, words.end());
    for (std::size_t j = i + 1; j < lines.size() && lines[j].rfind("durprobe: error: ", 0) == 0;
         ++j) {
      c.errors.push_back(lines[j]);
    }
    out.push_back(c);
  }
  return out;
}

std::vector<DocCommand> AllDocCommands() {
  std::vector<std::string> files = {"README.md"};
  Result<std::vector<std::string>> docs =
      platform::Default().ListDirectory(std::string(DURPROBE_SOURCE_DIR) + "/docs");
  EXPECT_TRUE(docs.ok());
  if (docs.ok()) {
    std::vector<std::string> names = *docs;
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) {
      if (n.size() > 3 && n.substr(n.size() - 3) == ".md") files.push_back("docs/" + n);
    }
  }
  std::vector<DocCommand> out;
  for (const std::string& f : files) {
    for (DocCommand& c : CommandsIn(f)) out.push_back(std::move(c));
  }
  return out;
}

// A synopsis made runnable: "[--seed 1]" -> "--seed 1", "PATH..." -> "PATH", a bracketed phrase
// that is not an option ("[rule flags]") dropped, and one line per alternative of "a|b|c".
std::vector<std::vector<std::string>> Expand(const std::vector<std::string>& words) {
  std::vector<std::string> plain;
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string w = words[i];
    if (w.front() == '[' && w.back() != ']' && w.size() > 1 && w[1] != '-' &&
        std::islower(static_cast<unsigned char>(w[1]))) {
      while (i < words.size() && words[i].back() != ']') ++i;  // a phrase: "[rule flags]"
      continue;
    }
    w.erase(std::remove(w.begin(), w.end(), '['), w.end());
    w.erase(std::remove(w.begin(), w.end(), ']'), w.end());
    if (w.size() > 3 && w.substr(w.size() - 3) == "...") w.resize(w.size() - 3);
    if (!w.empty()) plain.push_back(w);
  }
  std::vector<std::vector<std::string>> out = {{}};
  for (const std::string& w : plain) {
    std::vector<std::string> alternatives;
    std::size_t start = 0;
    for (std::size_t bar; (bar = w.find('|', start)) != std::string::npos; start = bar + 1) {
      alternatives.push_back(w.substr(start, bar - start));
    }
    alternatives.push_back(w.substr(start));
    std::vector<std::vector<std::string>> next;
    for (const auto& line : out) {
      for (const std::string& a : alternatives) {
        next.push_back(line);
        next.back().push_back(a);
      }
    }
    out = std::move(next);
  }
  return out;
}

bool Measures(const std::string& command) {
  static const std::set<std::string> kMeasuring = {
      "run", "probe", "sqlite", "compare", "check", "crashsim", "crashtest", "faults", "powercut"};
  return kMeasuring.count(command) > 0 || command.front() == '/' || command == "." ||
         command == "PATH";
}

// An option naming a report destination: one per row of the format table (output/formats.cc).
bool IsOutputOption(const std::string& word) {
  for (const output::FormatRow& row : output::FormatTable()) {
    if (row.help.empty()) continue;  // the console: no option
    if (word == output::OptionOf(row.format) || word == row.short_option) return true;
  }
  return false;
}

// Where the doc's placeholders and example paths go: directories under root, reports copied
// from fixtures, the policy file from docs/provisioning.md's own example.
class Sandbox {
 public:
  explicit Sandbox(const std::string& root) : root_(root) {}

  std::vector<std::string> Substitute(const std::vector<std::string>& words) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < words.size(); ++i) {
      const std::string& w = words[i];
      const std::string prev = i > 0 ? words[i - 1] : "";
      if (w == "COMMAND") {
        out.push_back("probe");
      } else if (prev == "--policy") {
        out.push_back(Policy(w));
      } else if (IsOutputOption(prev)) {
        out.push_back(w == "FILE" ? "out." + prev.substr(prev.rfind('-') + 1) : w);
      } else if (w.size() > 5 && w.substr(w.size() - 5) == ".json") {
        out.push_back(Report(w));
      } else if (w == "PATH" || w == "DIR" || (w.size() == 1 && std::isupper(w[0])) ||
                 (w.front() == '/' && !IsDirectory(w))) {
        out.push_back(Directory(w));
      } else {
        out.push_back(w);
      }
    }
    return out;
  }

 private:
  static bool IsDirectory(const std::string& path) {
    return platform::Default().KindOf(path) == platform::PathKind::kDirectory;
  }
  std::string Directory(const std::string& name) {
    std::string dir = root_ + "/dir-" + std::to_string(dirs_.size());
    auto [it, added] = dirs_.emplace(name, dir);
    if (added) {
      EXPECT_TRUE(platform::Default().MakeDirectory(it->second).ok()) << it->second;
    }
    return it->second;
  }
  std::string Report(const std::string& name) {
    bool b_side = name.find('b') == 0 || name.find('B') == 0 || name.find("hostB") == 0;
    std::string fixture = b_side ? "diff/b_sync_latency.json" : "diff/a.json";
    std::string path = root_ + "/" + (name.find('*') == std::string::npos ? name : "all.json");
    EXPECT_TRUE(platform::Default().WriteTextFile(path, testing_support::ReadFixture(fixture)).ok())
        << path;
    return path;
  }
  std::string Policy(const std::string& name) {
    std::string doc = Read(std::string(DURPROBE_SOURCE_DIR) + "/docs/provisioning.md");
    std::size_t start = doc.find("```toml\n");
    EXPECT_NE(start, std::string::npos) << "docs/provisioning.md has no toml example";
    start += 8;
    std::string toml = doc.substr(start, doc.find("```", start) - start);
    std::string path = root_ + "/" + (name == "FILE" ? "policy.toml" : name);
    EXPECT_TRUE(platform::Default().WriteTextFile(path, toml).ok()) << path;
    return path;
  }

  std::string root_;
  std::map<std::string, std::string> dirs_;
};

std::string ShellWords(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += " '" + w + "'";  // no doc word holds a quote
  return out;
}

TEST(DocCommandsTest, EveryDocumentedCommandLineRunsAsWritten) {
  std::vector<DocCommand> commands = AllDocCommands();
  ASSERT_GE(commands.size(), 30u) << "the extractor found too few command lines";
  int runs = 0;
  for (const DocCommand& c : commands) {
    for (const std::vector<std::string>& expanded : Expand(c.words)) {
      TempDir root;
      Sandbox sandbox(root.path());
      std::vector<std::string> words = sandbox.Substitute(expanded);
      if (!words.empty() && Measures(words[0])) words.push_back("--dry-run");
      CliRun r = testing_support::RunShell("cd " + root.path() + " && " DURPROBE_BINARY +
                                           ShellWords(words));
      std::string what = c.where + ": " + c.text + "\n  ran: durprobe" + ShellWords(words);
      ++runs;
      if (c.errors.empty()) {
        EXPECT_EQ(r.exit_code, 0) << what << "\n" << r.err;
        continue;
      }
      EXPECT_EQ(r.exit_code, 2) << what;
      std::string shown;
      for (const std::string& e : c.errors) shown += e + "\n";
      EXPECT_EQ(r.err, shown) << what;
    }
  }
  EXPECT_GE(runs, static_cast<int>(commands.size()));
  std::cout << runs << " command lines run from " << commands.size() << " documented ones\n";
}

// The options a command's help declares: "  -j,--json FILE   Write..." gives -j and --json.
std::set<std::string> DeclaredOptions(const std::string& command) {
  CliRun r = testing_support::RunDurprobe("help " + command);
  EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
  std::set<std::string> out;
  for (const std::string& line : Lines(r.out)) {
    std::size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos || start == 0 || line[start] != '-') continue;
    std::string names = line.substr(start, line.find(' ', start) - start);
    std::istringstream in(names);
    for (std::string name; std::getline(in, name, ',');) out.insert(name);
  }
  return out;
}

// README's table of which options each command takes, checked against each command's help:
// "yes" means the command declares every option of the row, "-" that it declares none.
TEST(DocCommandsTest, TheReadmeOptionTableMatchesEachCommandsHelp) {
  std::vector<std::string> lines = Lines(Read(std::string(DURPROBE_SOURCE_DIR) + "/README.md"));
  auto cells = [](const std::string& row) {
    std::vector<std::string> out;
    std::istringstream in(row.substr(1));
    for (std::string cell; std::getline(in, cell, '|');) {
      // "FILE\|-": an escaped bar is part of the cell.
      for (std::string rest; !cell.empty() && cell.back() == '\\' && std::getline(in, rest, '|');) {
        cell += "|" + rest;
      }
      out.push_back(cell.substr(cell.find_first_not_of(' ')));
    }
    return out;
  };
  std::size_t header = 0;
  while (header < lines.size() && lines[header].rfind("| options |", 0) != 0) ++header;
  ASSERT_LT(header, lines.size()) << "README.md has no option table";
  std::vector<std::string> commands = cells(lines[header]);
  std::map<std::string, std::set<std::string>> declared;
  for (std::size_t c = 1; c < commands.size(); ++c) {
    commands[c].erase(commands[c].find_last_not_of(' ') + 1);
    declared[commands[c]] = DeclaredOptions(commands[c]);
  }
  int checked = 0;
  for (std::size_t i = header + 2; i < lines.size() && lines[i].rfind("|", 0) == 0; ++i) {
    std::vector<std::string> row = cells(lines[i]);
    std::vector<std::string> options;
    std::istringstream words(row[0]);
    for (std::string w; words >> w;) {
      std::size_t dash = w.find('-');
      if (dash == std::string::npos) continue;
      std::string name = w.substr(dash);
      name = name.substr(0, name.find_first_of("`, "));
      std::size_t letter = name.find_first_not_of('-');
      if (letter == std::string::npos || letter > 2 || !std::isalpha(name[letter])) continue;
      std::size_t slash = name.find('/');
      options.push_back(name.substr(0, slash));
      if (slash != std::string::npos) options.push_back(name.substr(slash + 1));
    }
    ASSERT_FALSE(options.empty()) << lines[i];
    for (std::size_t c = 1; c < commands.size() && c < row.size(); ++c) {
      bool yes = row[c].rfind("yes", 0) == 0;
      for (const std::string& o : options) {
        EXPECT_EQ(declared[commands[c]].count(o) > 0, yes)
            << "README.md:" << i + 1 << ": " << commands[c] << " " << o << " says " << row[c];
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 100);
}

TEST(DocCommandsTest, TheExtractorReadsSynopsesCommentsAndQuotes) {
  EXPECT_EQ(Words("durprobe sqlite . --quick         # the same in about 10 s"),
            (std::vector<std::string>{"durprobe", "sqlite", ".", "--quick"}));
  EXPECT_EQ(Words("durprobe check /a --min-commits 'WAL:FULL>=500' --fail-on warn"),
            (std::vector<std::string>{"durprobe", "check", "/a", "--min-commits", "WAL:FULL>=500",
                                      "--fail-on", "warn"}));
  EXPECT_EQ(Words("durprobe diff A.json B.json     why two saved reports differ"),
            (std::vector<std::string>{"durprobe", "diff", "A.json", "B.json"}));
  std::vector<std::vector<std::string>> e =
      Expand({"check", "PATH...", "[--preset", "etcd|postgres-wal]", "[rule", "flags]"});
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0], (std::vector<std::string>{"check", "PATH", "--preset", "etcd"}));
  EXPECT_EQ(e[1], (std::vector<std::string>{"check", "PATH", "--preset", "postgres-wal"}));
}

}  // namespace
}  // namespace durprobe
