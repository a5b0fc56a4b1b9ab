#include "report/text/table.h"

#include <algorithm>

namespace durprobe::report {

std::size_t DisplayWidth(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // not a continuation byte
  }));
}

Table::Table(std::vector<Column> columns, int indent, int gap)
    : columns_(std::move(columns)), indent_(indent), gap_(gap) {}

void Table::AddRow(std::vector<std::string> cells) {
  cells.resize(std::max(cells.size(), columns_.size()));
  rows_.push_back({std::move(cells), std::string(), false});
}

void Table::AddSpanRow(std::vector<std::string> leading_cells, std::string text) {
  rows_.push_back({std::move(leading_cells), std::move(text), true});
}

void Table::PrintLine(const std::vector<std::size_t>& width, const std::vector<std::string>& cells,
                      const std::string* span, std::ostream& out) const {
  std::string text(static_cast<std::size_t>(indent_), ' ');
  std::size_t n = std::min(cells.size(), columns_.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) text.append(static_cast<std::size_t>(gap_), ' ');
    std::size_t w = DisplayWidth(cells[i]);
    std::string pad(width[i] > w ? width[i] - w : 0, ' ');
    text += columns_[i].align == Align::kRight ? pad + cells[i] : cells[i] + pad;
  }
  if (span != nullptr) {
    if (n > 0) text.append(static_cast<std::size_t>(gap_), ' ');
    text += *span;
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  out << text << '\n';
}

void Table::Print(std::ostream& out) const {
  // A whole table fits its cells; the minimum widths are for printing row by row only.
  std::vector<std::size_t> width(columns_.size(), 0);
  for (std::size_t i = 0; i < columns_.size(); ++i) width[i] = DisplayWidth(columns_[i].header);
  for (const Row& row : rows_) {
    for (std::size_t i = 0; i < row.cells.size() && i < columns_.size(); ++i) {
      width[i] = std::max(width[i], DisplayWidth(row.cells[i]));
    }
  }
  PrintHeader(out, width);
  for (const Row& row : rows_) PrintLine(width, row.cells, row.is_span ? &row.span : nullptr, out);
}

void Table::SetMinWidths(std::vector<std::size_t> min_widths) {
  min_widths_ = std::move(min_widths);
}

std::vector<std::size_t> Table::FixedWidths() const {
  std::vector<std::size_t> width(columns_.size(), 0);
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    width[i] = DisplayWidth(columns_[i].header);
    if (i < min_widths_.size()) width[i] = std::max(width[i], min_widths_[i]);
  }
  return width;
}

void Table::PrintHeader(std::ostream& out) const { PrintHeader(out, FixedWidths()); }

void Table::PrintHeader(std::ostream& out, const std::vector<std::size_t>& width) const {
  std::vector<std::string> headers;
  for (const Column& c : columns_) headers.push_back(c.header);
  PrintLine(width, headers, nullptr, out);
}

void Table::PrintLastRow(std::ostream& out) const {
  if (rows_.empty()) return;
  const Row& row = rows_.back();
  PrintLine(FixedWidths(), row.cells, row.is_span ? &row.span : nullptr, out);
}

}  // namespace durprobe::report
