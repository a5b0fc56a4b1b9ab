#include "text/json_scan.h"

#include <algorithm>

namespace durprobe::text {
namespace {

// The offset just past the string whose opening quote is at open (text.size() if unterminated).
std::size_t PastString(std::string_view text, std::size_t open) {
  for (std::size_t i = open + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return text.size();
}

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::size_t JsonTooDeepAt(std::string_view text, int max_depth) {
  int depth = 0;
  for (std::size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '"') {
      i = PastString(text, i);
      continue;
    }
    if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
    ++i;
  }
  return std::string_view::npos;
}

std::vector<std::size_t> JsonKeyOffsets(std::string_view text) {
  std::vector<std::size_t> keys;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] != '"') {
      ++i;
      continue;
    }
    std::size_t open = i;
    i = PastString(text, i);
    std::size_t next = i;
    while (next < text.size() && IsJsonSpace(text[next])) ++next;
    if (next < text.size() && text[next] == ':') keys.push_back(open);
  }
  return keys;
}

int LineCounter::LineAt(std::size_t offset) {
  offset = std::min(offset, text_.size());
  if (offset > at_) {
    line_ += static_cast<int>(std::count(text_.begin() + at_, text_.begin() + offset, '\n'));
    at_ = offset;
  }
  return line_;
}

}  // namespace durprobe::text
