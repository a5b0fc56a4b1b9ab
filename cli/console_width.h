// The width the console report may fill (docs/start.md, "Fitting the terminal").
#pragma once

#include <cstddef>

#include "platform/platform.h"

namespace durprobe::cli {

// 0 (unlimited: today's full tables) with --wide or when stdout is not a terminal; on a
// terminal, COLUMNS when it holds a number of at least 40, else the terminal's own width, else 80.
std::size_t ConsoleWidth(platform::Platform& platform, bool wide);

// Sets that width on std::cout, where every console document is printed, and returns it; piped
// (not --wide), also the width a long finding line is broken at (text/line_width.h).
std::size_t SetConsoleWidth(platform::Platform& platform, bool wide);

}  // namespace durprobe::cli
