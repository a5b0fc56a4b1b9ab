#include "text/shell_quote.h"

#include <algorithm>

namespace durprobe::text {
namespace {

bool IsShellLiteral(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("_@%+:,./-").find(c) != std::string_view::npos;
}

}  // namespace

std::string ShellQuote(std::string_view text) {
  if (!text.empty() && std::all_of(text.begin(), text.end(), IsShellLiteral)) {
    return std::string(text);
  }
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";  // close the quote, an escaped quote, reopen
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace durprobe::text
