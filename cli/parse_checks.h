// Checks of the raw command line that CLI11 cannot make or words poorly: a list option's empty
// item (CLI11 drops it, and `--writers ,` then takes the next argument as its value) and the
// closest option to a misspelt one.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace durprobe::cli {

// The command args name (args[0], and a nested command such as `powercut write` when args[1]
// names one of its own), or nullptr when args[0] names no command of top.
const CLI::App* CommandOf(const CLI::App& top, const std::vector<std::string>& args);

// The one-line error for the first value of a list option (one split at commas) of command that
// has an empty item ("1,,2", ",", "1,"), or "" when none has.
std::string EmptyListItem(const CLI::App& command, const std::vector<std::string>& args);

// The one-line error for the first word of args that looks like a long option, is none of
// command's and is within two edits of one of command's, naming that one; "" when there is none
// (a word near no option is left to CLI11, which says it was not expected).
std::string MisspeltOption(const CLI::App& command, const std::vector<std::string>& args);

}  // namespace durprobe::cli
