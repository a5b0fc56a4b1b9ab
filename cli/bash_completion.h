// The bash completion script, printed by the hidden `durprobe --bash-completion` from the same
// CLI11 definitions as --help (cli/command_tree.h): commands, nested commands, each command's
// options, and the names an option accepts (presets, primitives, journal modes, ...), also after
// a comma in a LIST. Installed as share/bash-completion/completions/durprobe.
#pragma once

#include <string>

#include "cli/command_tree.h"

namespace durprobe::cli {

std::string BashCompletion(const CommandEntry& top);

}  // namespace durprobe::cli
