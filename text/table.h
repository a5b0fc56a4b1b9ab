// The one console table writer: every table durprobe prints goes through it, so columns stay
// aligned whatever the widths of the values (each column is as wide as its widest cell, header
// included), and a change of layout is made once.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace durprobe::text {

enum class Align { kLeft, kRight };

struct Column {
  std::string header;
  Align align = Align::kRight;
  // On a terminal too narrow for every column (text/line_width.h): 0 always stays, and
  // among the others the highest is left out first. A table that leaves any out says which.
  int drop = 0;
  // The last column only: its text wraps under itself instead of widening the table.
  bool wraps = false;
};

class Table {
 public:
  // indent: spaces before every line; gap: spaces between columns.
  explicit Table(std::vector<Column> columns, int indent = 0, int gap = 2);

  // One cell per column; missing trailing cells print empty. A cell is one line of text: its
  // control characters, newline included, are escaped (EscapeControlChars, text/utf8.h),
  // so a value from a path or a saved report cannot start a row of its own.
  void AddRow(std::vector<std::string> cells);
  // A row whose first cells are aligned with the columns and whose text then runs to the end of
  // the line ("fdatasync  overwrite  4 KiB  unsupported: ..."): the text sets no column's width.
  void AddSpanRow(std::vector<std::string> leading_cells, std::string text);

  // Header and rows, one line each, no trailing spaces; within out's LineWidth when one is set
  // (columns left out by their drop rank, the wrapping column and span text wrapped).
  void Print(std::ostream& out) const;

 private:
  struct Row {
    std::vector<std::string> cells;
    std::string span;  // set for span rows
    bool is_span = false;
  };
  // Column widths and which columns show at a line width (0: unlimited).
  struct Layout {
    std::vector<std::size_t> width;
    std::vector<bool> shown;
    std::size_t line_width = 0;
  };
  Layout Fit(std::vector<std::size_t> width, std::size_t line_width) const;
  std::size_t WrapRoom(std::size_t column) const;  // the narrowest a wrapping column may be
  void PrintHeader(std::ostream& out, const Layout& layout) const;
  void PrintLine(const Layout& layout, const std::vector<std::string>& cells,
                 const std::string* span, std::ostream& out) const;

  std::vector<Column> columns_;
  std::vector<Row> rows_;
  int indent_;
  int gap_;
};

// Display width of UTF-8 text: code points, so "±" and "µ" count once.
std::size_t DisplayWidth(std::string_view text);
// The first columns code points of text, never half a UTF-8 sequence.
std::string FirstColumns(std::string_view text, std::size_t columns);

}  // namespace durprobe::text
