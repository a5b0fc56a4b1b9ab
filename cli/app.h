// Builds the command line and dispatches to a subcommand. main() only calls Main().
#pragma once

#include <string>
#include <vector>

namespace durprobe::cli {

// Parses argv, runs the subcommand, returns the exit status. No arguments: a short usage and 2;
// `help [COMMAND]`; a first word that is an existing path or an option means `run`; any other
// unknown word is an unknown command (with the closest command when one is near). Parse errors
// print one line and return 2. A report lost to a closed or full stdout is an error (exit 2).
int Main(int argc, char** argv);

// The first "--NAME=" with nothing after '=' (as "--NAME"), or "". CLI11 would take the next
// argument as its value (`--writers= --writers-modes threads` read "threads" as a path).
std::string EmptyInlineValue(const std::vector<std::string>& args);

// The command within two edits of word, or "" when none is that close.
std::string ClosestCommand(const std::string& word, const std::vector<std::string>& commands);

}  // namespace durprobe::cli
