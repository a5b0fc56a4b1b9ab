// How wide console text may be, and text broken to fit. The CLI sets the width once on the
// stream the console prints to (the terminal's columns; 0, unlimited, for piped output and
// --wide), so every console printer reads it from the stream it is handed and no signature
// carries it. Tables choose their columns by it (text/table.h); FitLines wraps the rest.
#pragma once

#include <cstddef>
#include <ios>
#include <string>
#include <string_view>

namespace durprobe::report {

// The width stored on a stream; 0 (the default on every stream) means unlimited.
void SetLineWidth(std::ios_base& out, std::size_t width);
std::size_t LineWidth(std::ios_base& out);

// text with every line wider than width broken at spaces (a word wider than the line is cut),
// each continuation indented hanging spaces past the line's own indent; width 0 keeps text.
std::string FitLines(std::string_view text, std::size_t width, std::size_t hanging = 2);

// One paragraph broken into lines of at most width (0: one line), the first starting at column
// first_column (the caller printed what comes before it), each later one indented by indent.
std::string WrapText(std::string_view text, std::size_t width, std::size_t first_column,
                     std::size_t indent);

}  // namespace durprobe::report
