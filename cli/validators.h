// CLI11 validators for option values (sizes, durations, one of a set of names, a number in a
// range), reusing text/units parsing so errors read the same everywhere.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

namespace durprobe::cli {

// A size with units (4k, 1MiB); the error is text::ParseSize's.
CLI::Validator Size();
// A duration with units (500ms, 10s, 2m); the error is text::ParseDurationNanos's.
CLI::Validator Duration();
// Case-insensitive choice among names; the error lists the valid ones:
// "--synchronous: 'ful' is not one of full, normal, off, extra".
CLI::Validator OneOf(const std::vector<std::string>& names, const std::string& what);

// The names of a name-to-value table (probes::PrimitiveNames(), ...), for OneOf.
template <typename Value>
std::vector<std::string> KeysOf(const std::map<std::string, Value>& table) {
  std::vector<std::string> out;
  for (const auto& entry : table) out.push_back(entry.first);
  return out;
}

// A number between lo and hi (inclusive), with the one wording every bad value gets:
// "--repetitions: '0' is not in 1..1000". Replaces CLI::Range, whose message reads otherwise.
CLI::Validator InRange(double lo, double hi);

}  // namespace durprobe::cli
