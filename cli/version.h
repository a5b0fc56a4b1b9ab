#pragma once

#include <string>

namespace durprobe::cli {

// "durprobe 0.1.0 (SQLite 3.40.1, Release build)", with a warning when unoptimised.
std::string VersionText();
// "durprobe 0.1.0": the name and version alone (the man page's header).
std::string VersionNumberText();

}  // namespace durprobe::cli
