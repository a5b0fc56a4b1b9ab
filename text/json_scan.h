// A linear walk over JSON text that builds nothing: how deep its brackets go, and where its keys
// sit. nlohmann's tree has no positions and its users recurse, so a document is measured here
// before it is parsed (a policy or report nested 10,000 deep would overflow the stack).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace durprobe::text {

// The byte offset of the first '[' or '{' (outside strings) that opens level max_depth + 1, or
// npos when the text stays within max_depth. Meaningful for any text: it does not validate.
std::size_t JsonTooDeepAt(std::string_view text, int max_depth);

// The byte offset of every object key's opening quote, in document order: the strings followed
// (after whitespace) by ':'. For valid JSON, one entry per key a SAX parser reports, same order.
std::vector<std::size_t> JsonKeyOffsets(std::string_view text);

// Lines of byte offsets given in increasing order, counted in one pass over the text.
class LineCounter {
 public:
  explicit LineCounter(std::string_view text) : text_(text) {}
  // 1-based line of offset; offsets must not decrease between calls.
  int LineAt(std::size_t offset);

 private:
  std::string_view text_;
  std::size_t at_ = 0;
  int line_ = 1;
};

}  // namespace durprobe::text
