#include "render/html/html_text.h"

#include <fmt/format.h>

#include <cmath>

#include "text/xml_escape.h"

namespace durprobe::render::html {

std::string Escape(std::string_view text) { return text::EscapeXml(text, "&#39;"); }

std::string Coord(double v) {
  if (!std::isfinite(v)) v = 0;
  std::string s = fmt::format("{:.2f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

}  // namespace durprobe::render::html
