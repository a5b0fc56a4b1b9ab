// durprobe(1) in man(7) roff, printed by the hidden `durprobe --man` from the same CLI11
// definitions as --help (cli/command_tree.h): one section per command with its options, their
// values, choices and defaults. The build writes it to build/man/durprobe.1.gz for install.
#pragma once

#include <string>

#include "cli/command_tree.h"

namespace durprobe::cli {

// The whole page for the tree; version goes in the page's header ("durprobe 0.1.0").
std::string ManPage(const CommandEntry& top, const std::string& version);

// text with roff's special characters made literal: backslashes, '-' as \-, and a line that
// would start with '.' or '\'' given a zero-width escape first.
std::string RoffEscape(const std::string& text);

}  // namespace durprobe::cli
