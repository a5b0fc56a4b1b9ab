#include "text/table.h"

#include <algorithm>

#include "text/line_width.h"
#include "text/utf8.h"

namespace durprobe::text {
namespace {

constexpr std::size_t kMinWrapColumn = 20;  // narrower, a wrapping column reads as noise
constexpr std::size_t kMaxWrapWord = 36;    // a longer word may be cut

}  // namespace

std::size_t DisplayWidth(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // not a continuation byte
  }));
}

std::string FirstColumns(std::string_view text, std::size_t columns) {
  std::size_t end = 0;
  for (std::size_t seen = 0; end < text.size(); ++end) {
    bool starts = (static_cast<unsigned char>(text[end]) & 0xC0) != 0x80;
    if (starts && seen++ == columns) break;
  }
  return std::string(text.substr(0, end));
}

Table::Table(std::vector<Column> columns, int indent, int gap)
    : columns_(std::move(columns)), indent_(indent), gap_(gap) {}

void Table::AddRow(std::vector<std::string> cells) {
  cells.resize(std::max(cells.size(), columns_.size()));
  for (std::string& cell : cells) cell = EscapeControlChars(cell);
  rows_.push_back({std::move(cells), std::string(), false});
}

void Table::AddSpanRow(std::vector<std::string> leading_cells, std::string text) {
  for (std::string& cell : leading_cells) cell = EscapeControlChars(cell);
  rows_.push_back({std::move(leading_cells), EscapeControlChars(text), true});
}

std::size_t Table::WrapRoom(std::size_t column) const {
  // Room for the longest word of a wrapping column (up to kMaxWrapWord), so words stay whole.
  std::size_t room = kMinWrapColumn;
  for (const Row& row : rows_) {
    if (column >= row.cells.size()) continue;
    std::string_view cell = row.cells[column];
    for (std::size_t i = 0; i < cell.size();) {
      std::size_t end = std::min(cell.find(' ', i), cell.size());
      room = std::max(room, std::min(kMaxWrapWord, DisplayWidth(cell.substr(i, end - i))));
      i = end + 1;
    }
  }
  return room;
}

Table::Layout Table::Fit(std::vector<std::size_t> width, std::size_t line_width) const {
  Layout layout{std::move(width), std::vector<bool>(columns_.size(), true), line_width};
  if (line_width == 0 || columns_.empty()) return layout;
  while (true) {
    std::size_t total = static_cast<std::size_t>(indent_), shown = 0, last = 0;
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      if (!layout.shown[i]) continue;
      total += (shown++ > 0 ? static_cast<std::size_t>(gap_) : 0) + layout.width[i];
      last = i;
    }
    bool fits = total <= line_width;
    if (!fits && columns_[last].wraps) {
      std::size_t start = total - layout.width[last];
      fits = start + WrapRoom(last) <= line_width;
    }
    if (fits) return layout;
    std::size_t victim = columns_.size();
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      if (layout.shown[i] && columns_[i].drop > 0 &&
          (victim == columns_.size() || columns_[i].drop >= columns_[victim].drop)) {
        victim = i;
      }
    }
    if (victim == columns_.size()) return layout;  // nothing left to leave out
    layout.shown[victim] = false;
  }
}

void Table::PrintLine(const Layout& layout, const std::vector<std::string>& cells,
                      const std::string* span, std::ostream& out) const {
  std::string text(static_cast<std::size_t>(indent_), ' ');
  std::size_t n = std::min(cells.size(), columns_.size());
  std::size_t last = 0;
  for (std::size_t i = 0; i < columns_.size(); ++i) last = layout.shown[i] ? i : last;
  bool first = true;
  for (std::size_t i = 0; i < n; ++i) {
    if (!layout.shown[i]) continue;
    if (!first) text.append(static_cast<std::size_t>(gap_), ' ');
    first = false;
    if (i == last && columns_[i].wraps && span == nullptr) {
      std::size_t start = DisplayWidth(text);
      text += WrapText(cells[i], layout.line_width, start, start);
      continue;
    }
    std::size_t w = DisplayWidth(cells[i]);
    std::string pad(layout.width[i] > w ? layout.width[i] - w : 0, ' ');
    text += columns_[i].align == Align::kRight ? pad + cells[i] : cells[i] + pad;
  }
  if (span != nullptr) {
    if (n > 0) text.append(static_cast<std::size_t>(gap_), ' ');
    std::size_t start = DisplayWidth(text);
    text += WrapText(*span, layout.line_width, start, start);
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  out << text << '\n';
}

void Table::Print(std::ostream& out) const {
  std::vector<std::size_t> width(columns_.size(), 0);
  for (std::size_t i = 0; i < columns_.size(); ++i) width[i] = DisplayWidth(columns_[i].header);
  for (const Row& row : rows_) {
    for (std::size_t i = 0; i < row.cells.size() && i < columns_.size(); ++i) {
      width[i] = std::max(width[i], DisplayWidth(row.cells[i]));
    }
  }
  Layout layout = Fit(std::move(width), LineWidth(out));
  PrintHeader(out, layout);
  for (const Row& row : rows_) PrintLine(layout, row.cells, row.is_span ? &row.span : nullptr, out);
}

void Table::PrintHeader(std::ostream& out, const Layout& layout) const {
  std::vector<std::string> headers, left_out;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    headers.push_back(columns_[i].header);
    if (!layout.shown[i]) left_out.push_back(columns_[i].header);
  }
  if (!left_out.empty()) {
    std::string names;
    for (const std::string& h : left_out) names += (names.empty() ? "" : ", ") + h;
    std::string note = "(left out to fit " + std::to_string(layout.line_width) +
                       " columns: " + names + "; --wide shows every column)";
    std::size_t indent = static_cast<std::size_t>(indent_);
    out << std::string(indent, ' ') << WrapText(note, layout.line_width, indent, indent + 1)
        << '\n';
  }
  PrintLine(layout, headers, nullptr, out);
}

}  // namespace durprobe::text
