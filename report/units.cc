#include "report/units.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace durprobe::report {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Splits "12.5ms" into 12.5 and "ms"; false when there is no leading number.
bool SplitNumber(std::string_view text, double* number, std::string* unit) {
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
    ++i;
  }
  if (i == 0) return false;
  std::string num(text.substr(0, i));
  char* end = nullptr;
  *number = std::strtod(num.c_str(), &end);
  if (end != num.c_str() + num.size()) return false;
  std::string_view rest = text.substr(i);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  *unit = Lower(rest);
  return true;
}

// "1234567" -> "1,234,567" for a whole number.
std::string Thousands(double whole) {
  std::string digits = fmt::format("{:.0f}", whole);
  std::string out;
  int count = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (count > 0 && count % 3 == 0) out.insert(out.begin(), ',');
    out.insert(out.begin(), *it);
    ++count;
  }
  return out;
}

}  // namespace

Result<std::uint64_t> ParseSize(std::string_view text) {
  double n = 0;
  std::string unit;
  auto bad = [&] {
    return Status::InvalidArgument(fmt::format(
        "invalid size '{}': expected a number with an optional unit (512, 2300, 4k, 64KiB, 1MiB)",
        text));
  };
  if (!SplitNumber(text, &n, &unit)) return bad();
  double mult;
  if (unit.empty() || unit == "b")
    mult = 1;
  else if (unit == "k" || unit == "kib" || unit == "ki")
    mult = 1024.0;
  else if (unit == "m" || unit == "mib" || unit == "mi")
    mult = 1024.0 * 1024;
  else if (unit == "g" || unit == "gib" || unit == "gi")
    mult = 1024.0 * 1024 * 1024;
  else if (unit == "kb")
    mult = 1e3;
  else if (unit == "mb")
    mult = 1e6;
  else if (unit == "gb")
    mult = 1e9;
  else
    return bad();
  double bytes = n * mult;
  if (bytes < 1 || bytes != std::floor(bytes) || bytes > 1e15) {
    return Status::InvalidArgument(
        fmt::format("invalid size '{}': must be a whole number of bytes, at least 1", text));
  }
  return static_cast<std::uint64_t>(bytes);
}

Result<std::uint64_t> ParseDurationNanos(std::string_view text) {
  double n = 0;
  std::string unit;
  auto bad = [&] {
    return Status::InvalidArgument(fmt::format(
        "invalid duration '{}': expected a number with a unit (500ms, 10s, 2m, 250us)", text));
  };
  if (!SplitNumber(text, &n, &unit)) return bad();
  double mult;
  if (unit.empty() || unit == "s" || unit == "sec")
    mult = 1e9;
  else if (unit == "ms")
    mult = 1e6;
  else if (unit == "us" || unit == "\xc2\xb5s")
    mult = 1e3;
  else if (unit == "ns")
    mult = 1;
  else if (unit == "m" || unit == "min")
    mult = 60e9;
  else if (unit == "h")
    mult = 3600e9;
  else
    return bad();
  double ns = n * mult;
  if (ns <= 0 || ns > 1e15) {
    return Status::InvalidArgument(fmt::format("invalid duration '{}': must be above zero", text));
  }
  // Under half a nanosecond rounds to 0 ns, which is no duration at all (".1ns", found by
  // tests/fuzz/units_fuzz.cc).
  std::uint64_t rounded = static_cast<std::uint64_t>(std::llround(ns));
  if (rounded == 0) {
    return Status::InvalidArgument(fmt::format("invalid duration '{}': must be at least 1ns", text));
  }
  return rounded;
}

std::string FormatNanos(double ns) {
  if (ns < 1e3) return fmt::format("{:.0f} ns", ns);
  if (ns < 1e6) return fmt::format("{:.{}f} us", ns / 1e3, ns < 1e4 ? 2 : ns < 1e5 ? 1 : 0);
  if (ns < 1e9) return fmt::format("{:.{}f} ms", ns / 1e6, ns < 1e7 ? 2 : ns < 1e8 ? 1 : 0);
  return fmt::format("{:.2f} s", ns / 1e9);
}

std::string NanosCell(std::uint64_t ns) { return FormatNanos(static_cast<double>(ns)); }

std::string PercentileCell(const std::optional<std::uint64_t>& ns) {
  return ns ? NanosCell(*ns) : std::string("-");
}

std::string FormatBytes(std::uint64_t n) {
  if (n < 1024 || n % 1024 != 0) {
    if (n < 1024 * 1024) return fmt::format("{} B", n);
    return fmt::format("{:.1f} MiB", static_cast<double>(n) / (1024.0 * 1024));
  }
  if (n < 1024 * 1024 || n % (1024 * 1024) != 0) return fmt::format("{} KiB", n / 1024);
  return fmt::format("{} MiB", n / (1024 * 1024));
}

std::string FormatRate(double per_sec) {
  if (per_sec < 100) return fmt::format("{:.1f}", per_sec);
  return Thousands(per_sec);
}

std::string FormatRatio(double ratio) {
  if (!std::isfinite(ratio) || ratio <= 0) return "-";
  if (ratio < 0.1) {
    double n = 1.0 / ratio;  // above 10
    double scale = std::pow(10.0, std::floor(std::log10(n)) - 1);
    return fmt::format("1/{:.0f}x", std::round(n / scale) * scale);
  }
  if (ratio < 10) return fmt::format("{:.2f}x", ratio);
  if (ratio < 100) return fmt::format("{:.1f}x", ratio);
  return fmt::format("{:.0f}x", ratio);
}

}  // namespace durprobe::report
