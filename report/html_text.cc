#include "report/html_text.h"

#include <fmt/format.h>

#include <cmath>

namespace durprobe::report::html {
namespace {

// Length of the well-formed UTF-8 sequence starting at text[i], or 0 when it is not one
// (overlong forms, surrogates and code points past U+10FFFF are not well-formed).
std::size_t Utf8Length(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char c = byte(i);
  std::size_t n = c < 0x80           ? 1
                  : (c >> 5) == 0x6  ? 2
                  : (c >> 4) == 0xE  ? 3
                  : (c >> 3) == 0x1E ? 4
                                     : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  if (n == 2 && c < 0xC2) return 0;
  if (n == 3) {
    unsigned next = byte(i + 1);
    if ((c == 0xE0 && next < 0xA0) || (c == 0xED && next >= 0xA0)) return 0;
  }
  if (n == 4) {
    unsigned next = byte(i + 1);
    if ((c == 0xF0 && next < 0x90) || (c == 0xF4 && next >= 0x90) || c > 0xF4) return 0;
  }
  return n;
}

}  // namespace

std::string Escape(std::string_view text) { return EscapeXml(text, "&#39;"); }

std::string EscapeXml(std::string_view text, std::string_view apostrophe) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = Utf8Length(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    if (n > 1) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    char c = text[i++];
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += apostrophe;
        break;
      default:
        // Other control characters are dropped: XML 1.0 has no way to carry them.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n' || c == '\r') {
          out += c;
        }
    }
  }
  return out;
}

std::string Coord(double v) {
  if (!std::isfinite(v)) v = 0;
  std::string s = fmt::format("{:.2f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

}  // namespace durprobe::report::html
