#include "text/units.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>

namespace durprobe::text {
std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

namespace {

// Splits "12.5ms" into 12.5 and "ms"; false when there is no leading number. A leading '-' is
// kept in the number so the caller can say "negative" rather than "not a number".
bool SplitNumber(std::string_view text, double* number, std::string* unit) {
  std::size_t i = !text.empty() && text[0] == '-' ? 1 : 0;
  std::size_t digits = i;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
    ++i;
  }
  if (i == digits) return false;
  std::string num(text.substr(0, i));
  char* end = nullptr;
  *number = std::strtod(num.c_str(), &end);
  if (end != num.c_str() + num.size()) return false;
  std::string_view rest = text.substr(i);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  *unit = AsciiLower(rest);
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

struct Unit {
  std::string_view name;  // lower case
  double factor;
};
constexpr Unit kSizeUnits[] = {{"", 1},
                               {"b", 1},
                               {"k", 1024.0},
                               {"ki", 1024.0},
                               {"kib", 1024.0},
                               {"m", 1048576.0},
                               {"mi", 1048576.0},
                               {"mib", 1048576.0},
                               {"g", 1073741824.0},
                               {"gi", 1073741824.0},
                               {"gib", 1073741824.0},
                               {"kb", 1e3},
                               {"mb", 1e6},
                               {"gb", 1e9}};
constexpr Unit kDurationUnits[] = {{"s", 1e9},  {"sec", 1e9},       {"ms", 1e6},
                                   {"us", 1e3}, {"\xc2\xb5s", 1e3}, {"ns", 1},
                                   {"m", 60e9}, {"min", 60e9},      {"h", 3600e9}};

template <std::size_t N>
std::optional<double> FactorOf(const Unit (&units)[N], std::string_view name) {
  for (const Unit& u : units) {
    if (u.name == name) return u.factor;
  }
  return std::nullopt;
}

constexpr double kMaxBytes = 1e15;       // 1 PB: far past any scratch file durprobe writes
constexpr double kMaxDurationNs = 1e15;  // 1,000,000 s, about 11.5 days

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
  std::optional<double> mult = FactorOf(kSizeUnits, unit);
  if (!mult) return bad();
  double bytes = n * *mult;
  if (bytes < 0) {
    return Status::InvalidArgument(fmt::format("invalid size '{}': must not be negative", text));
  }
  if (bytes == 0) {
    return Status::InvalidArgument(fmt::format("invalid size '{}': must be at least 1 byte", text));
  }
  if (bytes > kMaxBytes) {
    return Status::InvalidArgument(
        fmt::format("invalid size '{}': too large (at most 1 PB, 10^15 bytes)", text));
  }
  if (bytes != std::floor(bytes)) {
    return Status::InvalidArgument(
        fmt::format("invalid size '{}': must be a whole number of bytes", text));
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
  if (unit.empty() && n == 0) {
    // "0s" would be refused too: the suggestion is a duration that is accepted.
    return Status::InvalidArgument(fmt::format(
        "invalid duration '{}': give one above zero, with a unit (500ms, 10s, 2m)", text));
  }
  if (unit.empty()) {
    // "30" could mean seconds or milliseconds; the user says which.
    return Status::InvalidArgument(
        fmt::format("invalid duration '{}': give a unit ({}s, {}ms, {}m)", text, text, text, text));
  }
  std::optional<double> mult = FactorOf(kDurationUnits, unit);
  if (!mult) return bad();
  double ns = n * *mult;
  if (ns < 0) {
    return Status::InvalidArgument(
        fmt::format("invalid duration '{}': must not be negative", text));
  }
  // Under half a nanosecond rounds to 0 ns, which is no duration at all (".1ns", found by
  // tests/fuzz/units_fuzz.cc).
  if (std::llround(ns) == 0) {
    return Status::InvalidArgument(fmt::format("invalid duration '{}': must be above zero", text));
  }
  if (ns > kMaxDurationNs) {
    return Status::InvalidArgument(
        fmt::format("invalid duration '{}': too long (at most 1000000s, about 11 days)", text));
  }
  return static_cast<std::uint64_t>(std::llround(ns));
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

std::string OpsCount(std::uint64_t n) {
  if (n == 1) return "1 op";
  return CountText(n) + " ops";
}

std::string CountText(std::uint64_t n) {
  return n < 1000 ? fmt::format("{}", n) : Thousands(static_cast<double>(n));
}

std::string FormatBytes(std::uint64_t n) {
  if (n < 1024 || n % 1024 != 0) {
    if (n < 1024 * 1024) return fmt::format("{} B", n);
    return fmt::format("{:.1f} MiB", static_cast<double>(n) / (1024.0 * 1024));
  }
  if (n < 1024 * 1024 || n % (1024 * 1024) != 0) return fmt::format("{} KiB", n / 1024);
  return fmt::format("{} MiB", n / (1024 * 1024));
}

std::string FormatBytesAs(std::uint64_t n, std::uint64_t like) {
  if (n == 0) return "0 B";
  auto in = [n](double unit, const char* name) {
    double v = static_cast<double>(n) / unit;
    bool whole = v >= 10 || v == static_cast<double>(static_cast<std::uint64_t>(v));
    return whole ? fmt::format("{:.0f} {}", v, name) : fmt::format("{:.1f} {}", v, name);
  };
  if (like >= 1024 * 1024) return in(1024.0 * 1024, "MiB");
  if (like >= 1024) return in(1024.0, "KiB");
  return fmt::format("{} B", n);
}

std::string FormatRate(double per_sec) {
  if (per_sec < 100) return fmt::format("{:.1f}", per_sec);
  return Thousands(per_sec);
}

std::string FormatRatio(double ratio) {
  if (!std::isfinite(ratio) || ratio <= 0) return "-";
  // One style at every size: a factor, and below 1 its inverse ("1/5.26x", never "0.19x").
  if (ratio < 1.0 && std::round(ratio * 100) < 100) {
    double n = 1.0 / ratio;
    if (n < 10) return fmt::format("1/{:.2f}x", n);
    double scale = std::pow(10.0, std::floor(std::log10(n)) - 1);
    return fmt::format("1/{:.0f}x", std::round(n / scale) * scale);
  }
  if (ratio < 10) return fmt::format("{:.2f}x", ratio);
  if (ratio < 100) return fmt::format("{:.1f}x", ratio);
  return fmt::format("{:.0f}x", ratio);
}

}  // namespace durprobe::text
