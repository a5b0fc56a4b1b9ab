#include "cli/validators.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>
#include <exception>

#include "platform/status.h"
#include "text/units.h"

namespace durprobe::cli {

CLI::Validator Size() {
  return CLI::Validator(
      [](std::string& value) {
        Result<std::uint64_t> n = text::ParseSize(value);
        return n.ok() ? std::string() : n.status().message();
      },
      "SIZE");
}

CLI::Validator Duration() {
  return CLI::Validator(
      [](std::string& value) {
        Result<std::uint64_t> n = text::ParseDurationNanos(value);
        return n.ok() ? std::string() : n.status().message();
      },
      "DURATION");
}

CLI::Validator OneOf(const std::vector<std::string>& names, const std::string& what) {
  std::string joined;
  for (const std::string& n : names) joined += (joined.empty() ? "" : ", ") + n;
  return CLI::Validator(
      [names, what, joined](std::string& value) {
        std::string lower = value;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (const std::string& n : names) {
          if (n == lower) {
            value = n;
            return std::string();
          }
        }
        return fmt::format("'{}' is not one of {} (the valid {} names)", value, joined, what);
      },
      "{" + joined + "}");
}

CLI::Validator InRange(double lo, double hi) {
  auto text = [](double v) {
    return v == static_cast<double>(static_cast<long long>(v)) ? fmt::format("{:.0f}", v)
                                                               : fmt::format("{}", v);
  };
  std::string range = text(lo) + ".." + text(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& value) {
        double v = 0;
        std::size_t used = 0;
        try {
          v = std::stod(value, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != value.size()) {
          return fmt::format("'{}' is not a number (expected {})", value, range);
        }
        // Written so NaN fails too (every comparison with it is false).
        if (!(v >= lo && v <= hi)) return fmt::format("'{}' is not in {}", value, range);
        return std::string();
      },
      "in " + range);
}

}  // namespace durprobe::cli
