// The man page and the bash completion the binary prints (`durprobe --man`,
// `--bash-completion`): every command, nested command, option and positional that `help` shows
// is in the page, and the completion, sourced in bash, completes commands, options, and the
// names an option takes.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_runner.h"

namespace durprobe {
namespace manual_cli_test {

using testing_support::CliRun;
using testing_support::RunDurprobe;
using testing_support::RunShell;
using testing_support::TempDir;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The words a help text lists under heading ("Subcommands:", "Positionals:") or, for
// "Options:", every option name (-j and --json of "-j,--json FILE").
std::vector<std::string> Listed(const std::string& help, const std::string& heading) {
  std::vector<std::string> out;
  bool in = false;
  for (const std::string& line : Lines(help)) {
    if (line.empty() || line[0] != ' ') {
      in = line == heading;
      continue;
    }
    if (!in || line.size() < 3 || line[2] == ' ') continue;  // a wrapped description
    std::string first = line.substr(2, line.find(' ', 2) - 2);
    if (heading != "Options:") {
      out.push_back(first);
      continue;
    }
    std::istringstream names(first);
    for (std::string n; std::getline(names, n, ',');) out.push_back(n);
  }
  return out;
}

// The man page's spelling of a word: roff's \- for '-'.
std::string Roff(const std::string& word) {
  std::string out;
  for (char c : word) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

TEST(ManualCliTest, ManPageHasEveryCommandOptionAndPositionalTheHelpShows) {
  CliRun man = RunDurprobe("--man");
  ASSERT_EQ(man.exit_code, 0) << man.err;
  ASSERT_EQ(man.out.rfind(".TH DURPROBE 1 ", 0), 0u) << man.out.substr(0, 200);
  CliRun top = RunDurprobe("--help");
  std::vector<std::string> commands = Listed(top.out, "Subcommands:");
  ASSERT_GE(commands.size(), 14u) << top.out;
  std::size_t checked = 0;
  // Each command, and each command of a command made of commands (powercut's), with its help.
  std::vector<std::string> paths = commands;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    CliRun help = RunDurprobe(paths[i] + " --help");
    ASSERT_EQ(help.exit_code, 0) << paths[i] << help.err;
    EXPECT_NE(man.out.find(".SS \"" + Roff(paths[i]) + "\""), std::string::npos)
        << "no section for " << paths[i];
    const std::size_t at = man.out.find(".SS \"" + Roff(paths[i]) + "\"");
    const std::size_t end = man.out.find(".SS ", at + 1);
    const std::string section = man.out.substr(at, end == std::string::npos ? end : end - at);
    for (const std::string& nested : Listed(help.out, "Subcommands:")) {
      paths.push_back(paths[i] + " " + nested);
    }
    // Each as an entry of its own: an option's name in bold, a positional's in italics after
    // .TP (the synopsis names the positionals too, which does not count).
    for (const char* heading : {"Options:", "Positionals:"}) {
      for (const std::string& word : Listed(help.out, heading)) {
        const std::string entry = heading == std::string("Options:")
                                      ? "\\fB" + Roff(word) + "\\fR"
                                      : ".TP\n\\fI" + Roff(word) + "\\fR";
        EXPECT_NE(section.find(entry), std::string::npos)
            << paths[i] << ": " << word << " is in --help, not in its man page section";
        ++checked;
      }
    }
  }
  EXPECT_GT(paths.size(), commands.size()) << "powercut's commands were not found";
  EXPECT_GT(checked, 150u);
}

// What _durprobe completes for the words typed (the last one being completed).
std::string Complete(const std::string& script, const std::string& words) {
  CliRun r = RunShell("bash -c 'source " + script + "; COMP_WORDS=(durprobe " + words +
                      "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _durprobe; "
                      "printf \"%s \" \"${COMPREPLY[@]}\"'");
  EXPECT_EQ(r.exit_code, 0) << words << ": " << r.err;
  return r.out;
}

TEST(ManualCliTest, BashCompletionCompletesCommandsOptionsAndTheirNames) {
  TempDir dir;
  const std::string script = dir.path() + "/durprobe.bash";
  CliRun gen = RunDurprobe("--bash-completion > " + script);
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  EXPECT_EQ(Complete(script, "che"), "check ");
  EXPECT_EQ(Complete(script, "check --pres"), "--preset ");
  EXPECT_EQ(Complete(script, "check /x --preset \"\""), "etcd postgres-wal sqlite-app ");
  EXPECT_EQ(Complete(script, "check --preset et"), "etcd ");
  // A LIST: the names after the last comma, the words before kept.
  EXPECT_EQ(Complete(script, "probe --primitives fsync,fdat"), "fsync,fdatasync ");
  EXPECT_NE(Complete(script, "sqlite --journal-modes \"\"").find("wal"), std::string::npos);
  EXPECT_EQ(Complete(script, "powercut w"), "witness write ");
  EXPECT_NE(Complete(script, "powercut write --prim").find("--primitive"), std::string::npos);
  // A value with no fixed set (a file) completes as a file name, not as an option.
  std::ofstream(dir.path() + "/report.json") << "{}";
  EXPECT_EQ(Complete(script, "run --json " + dir.path() + "/rep"), dir.path() + "/report.json ");
}

}  // namespace manual_cli_test
}  // namespace durprobe
