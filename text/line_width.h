// How wide console text may be, and text broken to fit. The CLI sets the width once on the
// stream the console prints to (the terminal's columns; 0, unlimited, for piped output and
// --wide), so every console printer reads it from the stream it is handed and no signature
// carries it. Tables choose their columns by it (text/table.h); FitLines wraps the rest.
#pragma once

#include <cstddef>
#include <ios>
#include <string>
#include <string_view>

namespace durprobe::text {

// The width stored on a stream; 0 (the default on every stream) means unlimited.
void SetLineWidth(std::ios_base& out, std::size_t width);
std::size_t LineWidth(std::ios_base& out);

// Piped output (no terminal, no --wide) keeps its tables whole, but a finding's line longer than
// kLongLine is broken at kPipedLine, so a log viewer shows it without scrolling sideways. The
// CLI sets it on the stream as it sets the width; 0 (the default on every stream) keeps lines.
inline constexpr std::size_t kLongLine = 200;
inline constexpr std::size_t kPipedLine = 100;
void SetLongLineWrap(std::ios_base& out, std::size_t width);
std::size_t LongLineWrap(std::ios_base& out);

// text with every line wider than width broken at spaces (a word wider than the line is cut),
// each continuation indented hanging spaces past the line's own indent; width 0 keeps text.
std::string FitLines(std::string_view text, std::size_t width, std::size_t hanging = 2);

// Text laid out as a label, two or more spaces, then its description (a command's help): each
// line wider than width continues under its own description, or, when the description starts
// past half the line or the line has no label, under the line's own indent (at least 4); width 0
// keeps text.
std::string FitLabelled(std::string_view text, std::size_t width);

// One paragraph broken into lines of at most width (0: one line), the first starting at column
// first_column (the caller printed what comes before it), each later one indented by indent.
std::string WrapText(std::string_view text, std::size_t width, std::size_t first_column,
                     std::size_t indent);

}  // namespace durprobe::text
