#include "render/console/repeat_cells.h"

#include <fmt/format.h>

#include "text/units.h"

namespace durprobe::render::console {
namespace {

// "140 us" and "171 us" -> "140-171 us"; different units keep both, as do figures without one
// ("3,310-4,100").
std::string Range(const std::string& low, const std::string& high) {
  const std::size_t a = low.rfind(' '), b = high.rfind(' ');
  if (a != std::string::npos && b != std::string::npos && low.substr(a) == high.substr(b)) {
    return low.substr(0, a) + "-" + high;
  }
  return low + "-" + high;
}

// The median, then the next run's interval in round brackets, or the least and greatest in
// square ones where none was predicted.
template <typename Format>
std::string Cell(const model::RepeatSpread& s, Format format) {
  const bool next = Predicted(s);
  return fmt::format("{} {}{}{}", format(s.median), next ? '(' : '[',
                     Range(format(next ? s.next_low : s.min), format(next ? s.next_high : s.max)),
                     next ? ')' : ']');
}

}  // namespace

std::string NanosRangeCell(const model::RepeatSpread& s) {
  return Cell(s, [](double v) { return text::FormatNanos(v); });
}

std::string RateRangeCell(const model::RepeatSpread& s) {
  return Cell(s, [](double v) { return text::FormatRate(v); });
}

std::string RepeatsNote() {
  return "--repeat: a figure with a range is the median of the runs'; in brackets where the next "
         "run's should land (95%, from how far the runs moved; not a confidence interval); in "
         "square brackets the least and the greatest run's where they predict no next one (two "
         "runs, or runs twofold apart: the disk changed state between them)";
}

}  // namespace durprobe::render::console
