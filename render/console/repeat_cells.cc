#include "render/console/repeat_cells.h"

#include <fmt/format.h>

#include "text/units.h"

namespace durprobe::report {
namespace {

// "140 us" and "171 us" -> "140-171 us"; different units keep both.
std::string Range(const std::string& low, const std::string& high) {
  const std::size_t a = low.rfind(' '), b = high.rfind(' ');
  if (a != std::string::npos && b != std::string::npos && low.substr(a) == high.substr(b)) {
    return low.substr(0, a) + "-" + high;
  }
  return low + "-" + high;
}

}  // namespace

std::string NanosRangeCell(const RepeatSpread& s) {
  if (Predicted(s)) {
    return fmt::format("{} ({})", FormatNanos(s.median),
                       Range(FormatNanos(s.next_low), FormatNanos(s.next_high)));
  }
  return fmt::format("{} [{}]", FormatNanos(s.median),
                     Range(FormatNanos(s.min), FormatNanos(s.max)));
}

std::string RateRangeCell(const RepeatSpread& s) {
  if (Predicted(s)) {
    return fmt::format("{} ({}-{})", FormatRate(s.median), FormatRate(s.next_low),
                       FormatRate(s.next_high));
  }
  return fmt::format("{} [{}-{}]", FormatRate(s.median), FormatRate(s.min), FormatRate(s.max));
}

std::string RepeatsNote() {
  return "--repeat: a figure with a range is the median of the runs'; in brackets where the next "
         "run's should land (95%, from how far the runs moved; not a confidence interval); in "
         "square brackets the least and the greatest run's where they predict no next one (two "
         "runs, or runs twofold apart: the disk changed state between them)";
}

}  // namespace durprobe::report
