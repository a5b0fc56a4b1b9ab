#pragma once

#include <string>

namespace durprobe::cli {

// "durprobe 0.1.0 (SQLite 3.40.1, Release build)", with a warning when unoptimised.
std::string VersionText();

}  // namespace durprobe::cli
