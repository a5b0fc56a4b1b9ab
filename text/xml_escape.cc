#include "text/xml_escape.h"

#include "text/utf8.h"

namespace durprobe::text {

std::string EscapeXml(std::string_view text, std::string_view apostrophe) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = Utf8SequenceAt(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    if (n == 2 && static_cast<unsigned char>(text[i]) == 0xC2 &&
        static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      i += n;  // a C1 control (U+0080 to U+009F): a parse error in HTML, a command to a terminal
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
        // DEL too: HTML calls it a parse error, as it does the C1 controls.
        if ((static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) || c == '\t' || c == '\n' ||
            c == '\r') {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace durprobe::text
