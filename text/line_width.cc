#include "text/line_width.h"

#include <algorithm>
#include <functional>

#include "text/table.h"

namespace durprobe::text {
namespace {

int WidthSlot() {
  static const int slot = std::ios_base::xalloc();
  return slot;
}

int LongLineSlot() {
  static const int slot = std::ios_base::xalloc();
  return slot;
}

// The byte offset where the first `columns` code points of text end.
std::size_t BytesFor(std::string_view text, std::size_t columns) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (seen++ == columns) return i;
  }
  return text.size();
}

// Where a wrapped line continues: under the text of a labelled line ("  path        ext4 ...",
// "  note: ..."), so the label stands out, else `fallback` columns in; never so deep that less
// than half the line is left.
std::size_t HangAt(std::string_view line, std::size_t lead, std::size_t fallback,
                   std::size_t width) {
  std::string_view rest = line.substr(lead);
  std::size_t at = fallback;
  if (rest.rfind("note: ", 0) == 0) {
    at = lead + 6;
  } else if (std::size_t gap = rest.find("  "); gap != std::string_view::npos && gap <= 12) {
    std::size_t text = rest.find_first_not_of(' ', gap);
    if (text != std::string_view::npos) at = lead + text;
  }
  return at <= width / 2 ? at : fallback;
}

}  // namespace

void SetLineWidth(std::ios_base& out, std::size_t width) {
  out.iword(WidthSlot()) = static_cast<long>(width);
}

std::size_t LineWidth(std::ios_base& out) {
  long w = out.iword(WidthSlot());
  return w > 0 ? static_cast<std::size_t>(w) : 0;
}

void SetLongLineWrap(std::ios_base& out, std::size_t width) {
  out.iword(LongLineSlot()) = static_cast<long>(width);
}

std::size_t LongLineWrap(std::ios_base& out) {
  long w = out.iword(LongLineSlot());
  return w > 0 ? static_cast<std::size_t>(w) : 0;
}

std::string WrapText(std::string_view text, std::size_t width, std::size_t first_column,
                     std::size_t indent) {
  if (width == 0 || first_column + DisplayWidth(text) <= width) return std::string(text);
  // A continuation narrower than 20 columns reads worse than a shallower indent.
  if (indent + 20 > width) indent = std::min(indent, width / 4);
  std::string out;
  std::size_t column = first_column;
  bool line_empty = true;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t begin = text.find_first_not_of(' ', i);
    if (begin == std::string_view::npos) break;
    std::size_t gap = begin - i;  // the spaces before the word, kept when it stays on the line
    std::size_t end = std::min(text.find(' ', begin), text.size());
    std::string_view word = text.substr(begin, end - begin);
    i = end;
    std::size_t w = DisplayWidth(word);
    if (!line_empty && column + gap + w > width) {
      out += '\n' + std::string(indent, ' ');
      column = indent;
      line_empty = true;
    }
    if (!line_empty) {
      out.append(gap, ' ');
      column += gap;
    }
    while (column + w > width && width > column) {  // a word wider than a whole line
      std::size_t cut = BytesFor(word, width - column);
      out += std::string(word.substr(0, cut)) + '\n' + std::string(indent, ' ');
      word = word.substr(cut);
      w = DisplayWidth(word);
      column = indent;
    }
    out += word;
    column += w;
    line_empty = false;
  }
  return out;
}

namespace {

// text with every line wider than width broken by wrap(line, lead), lead being the line's
// leading spaces; width 0 keeps text.
std::string FitEachLine(
    std::string_view text, std::size_t width,
    const std::function<std::string(std::string_view line, std::size_t lead)>& wrap) {
  if (width == 0) return std::string(text);
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view line = text.substr(start, end - start);
    if (DisplayWidth(line) <= width) {
      out += line;
    } else {
      std::size_t lead = std::min(line.find_first_not_of(' '), line.size());
      out += wrap(line, lead);
    }
    if (nl != std::string_view::npos) out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string FitLabelled(std::string_view text, std::size_t width) {
  return FitEachLine(text, width, [width](std::string_view line, std::size_t lead) {
    std::size_t gap = line.find("  ", lead);
    std::size_t column =
        gap == std::string_view::npos ? line.size() : line.find_first_not_of(' ', gap);
    if (column != std::string_view::npos && column < line.size() &&
        DisplayWidth(line.substr(0, column)) <= width / 2) {
      std::size_t at = DisplayWidth(line.substr(0, column));
      return std::string(line.substr(0, column)) + WrapText(line.substr(column), width, at, at);
    }
    // A description's own continuation line (no label) stays under itself.
    return std::string(lead, ' ') +
           WrapText(line.substr(lead), width, lead, std::max<std::size_t>(lead, 4));
  });
}

std::string FitLines(std::string_view text, std::size_t width, std::size_t hanging) {
  return FitEachLine(text, width, [width, hanging](std::string_view line, std::size_t lead) {
    return std::string(lead, ' ') +
           WrapText(line.substr(lead), width, lead, HangAt(line, lead, lead + hanging, width));
  });
}

}  // namespace durprobe::text
