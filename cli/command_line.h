// The command line as typed, kept for the report (context.command_line): argv shell-quoted.
#pragma once

#include <string>

namespace durprobe::cli {

// Stores the command line (set by Main): "durprobe" for argv[0], then each word, shell-quoted
// (in single quotes) where it is empty or holds anything but letters, digits and -_./=:,@%+.
void SetCommandLine(int argc, char** argv);
// What SetCommandLine stored; "" before it is called.
const std::string& CommandLine();

}  // namespace durprobe::cli
