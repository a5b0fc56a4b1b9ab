#include "cli/console_width.h"

#include <cstdlib>
#include <iostream>
#include <string>

#include "text/line_width.h"

namespace durprobe::cli {
namespace {

constexpr std::size_t kNarrowest = 40;  // below this no table can be read; COLUMNS is ignored
constexpr std::size_t kUnknown = 80;

}  // namespace

std::size_t ConsoleWidth(platform::Platform& platform, bool wide) {
  if (wide || !platform.IsTerminal(1)) return 0;
  std::string columns = platform.GetEnv("COLUMNS");
  if (!columns.empty() && columns.find_first_not_of("0123456789") == std::string::npos &&
      columns.size() < 6) {
    std::size_t n = static_cast<std::size_t>(std::atoi(columns.c_str()));
    if (n >= kNarrowest) return n;
  }
  int tty = platform.TerminalColumns(1);
  if (tty > 0) return static_cast<std::size_t>(tty) < kNarrowest ? kNarrowest : tty;
  return kUnknown;
}

std::size_t SetConsoleWidth(platform::Platform& platform, bool wide) {
  std::size_t width = ConsoleWidth(platform, wide);
  text::SetLineWidth(std::cout, width);
  bool piped = !wide && !platform.IsTerminal(1);
  text::SetLongLineWrap(std::cout, piped ? text::kPipedLine : 0);
  return width;
}

}  // namespace durprobe::cli
