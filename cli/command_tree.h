// The command line as data: every command, nested command, option and positional the CLI11 apps
// define, with the words their help shows. The man page (cli/man_page.h) and the bash completion
// (cli/bash_completion.h) are printed from it, so neither can disagree with --help.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace durprobe::cli {

struct OptionEntry {
  std::vector<std::string> names;    // "-j", "--json"; a positional's one name ("PATH")
  std::string value;                 // what the help shows after the names ("FILE"); "" a flag
  std::vector<std::string> choices;  // the names a OneOf validator accepts ("etcd", ...)
  std::string default_value;         // CLI11's default, "" when it shows none
  std::string help;
  bool positional = false;
  bool required = false;
  bool repeatable = false;  // takes a list (comma-separated or repeated)
};

struct CommandEntry {
  std::string name;  // "" for the top level
  std::string description;
  std::vector<OptionEntry> options;  // in definition order, hidden ones (no group) left out
  std::vector<CommandEntry> commands;
};

// The tree under app, as its help shows it.
CommandEntry DescribeCommands(const CLI::App& app);

// The names a OneOf validator lists in a CLI11 type name: "TEXT:{a, b} ..." -> {"a", "b"}.
std::vector<std::string> ChoicesIn(const std::string& type_name);

}  // namespace durprobe::cli
