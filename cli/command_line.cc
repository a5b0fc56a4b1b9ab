#include "cli/command_line.h"

#include <cctype>
#include <string_view>

namespace durprobe::cli {
namespace {

std::string& StoredCommandLine() {
  static std::string line;
  return line;
}

std::string ShellQuote(const std::string& word) {
  bool plain = !word.empty();
  for (char c : word) {
    plain = plain && (std::isalnum(static_cast<unsigned char>(c)) ||
                      std::string_view("-_./=:,@%+").find(c) != std::string_view::npos);
  }
  if (plain) return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

void SetCommandLine(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    std::string word = i == 0 ? std::string("durprobe") : std::string(argv[i]);
    if (!line.empty()) line += ' ';
    line += ShellQuote(word);
  }
  StoredCommandLine() = line;
}

const std::string& CommandLine() { return StoredCommandLine(); }

}  // namespace durprobe::cli
