// Human units: formatting for reporters, parsing for the command line.
// Sizes: "4096", "4k"/"4K"/"4KiB" (1024), "1m"/"1MiB", "2300b". Decimal "kB"/"MB" are 1000-based.
// Durations: "500ms", "10s", "1.5m", "250us", "100ns", "2h"; the unit is required.
// Each refusal says which rule failed: not a number, no unit, negative, zero, too large.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "platform/status.h"

namespace durprobe::report {

Result<std::uint64_t> ParseSize(std::string_view text);
Result<std::uint64_t> ParseDurationNanos(std::string_view text);

std::string FormatNanos(double ns);        // "812 ns", "1.23 us", "4.56 ms", "2.00 s"
std::string FormatBytes(std::uint64_t n);  // "2300 B", "4 KiB", "1.5 MiB"
std::string FormatRate(double per_sec);    // "1,234" / "12.3" with thousands separators

}  // namespace durprobe::report
