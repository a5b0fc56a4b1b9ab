// Human units: formatting for reporters, parsing for the command line.
// Sizes: "4096", "4k"/"4K"/"4KiB" (1024), "1m"/"1MiB", "2300b". Decimal "kB"/"MB" are 1000-based.
// Durations: "500ms", "10s", "1.5m", "250us", "100ns", "2h"; the unit is required.
// Each refusal says which rule failed: not a number, no unit, negative, zero, too large.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "platform/status.h"

namespace durprobe::text {

// ASCII letters lowered, other bytes as they are: names and units are matched case-insensitively.
std::string AsciiLower(std::string_view text);

Result<std::uint64_t> ParseSize(std::string_view text);
Result<std::uint64_t> ParseDurationNanos(std::string_view text);

std::string FormatNanos(double ns);  // "812 ns", "1.23 us", "4.56 ms", "2.00 s"
// A table cell for a time: FormatNanos, or "-" when absent (a percentile too few operations
// support, model/percentiles.h).
std::string NanosCell(std::uint64_t ns);
std::string PercentileCell(const std::optional<std::uint64_t>& ns);
// An operation count where a figure stands in for what it cannot support: "1 op", "12 ops".
std::string OpsCount(std::uint64_t n);
// A count with thousands separators: "57", "4,677".
std::string CountText(std::uint64_t n);
// The legend line under a table that can show "-" for a percentile.
inline constexpr const char* kPercentileLegend =
    "p90, p99, p99.9 \"-\": fewer operations than that percentile needs (10, 100, 1,000)";
std::string FormatBytes(std::uint64_t n);  // "2300 B", "4 KiB", "1.5 MiB"
// n in the unit FormatBytes would pick for `like` (MiB, KiB, B), so two sizes in one message
// share a unit: "2049 MiB ... 1024 MiB is free", never "1048572 KiB".
std::string FormatBytesAs(std::uint64_t n, std::uint64_t like);
std::string FormatRate(double per_sec);  // "1,234" / "12.3" with thousands separators
// A ratio a reader can take in at a glance, in one style: "1.25x", "12.3x", "1389x"; under 1 as
// the inverse, "1/2.22x" for 0.45, "1/1400x" for 0.00072 (from 10 on, two significant
// digits); "-" when not a positive finite number.
std::string FormatRatio(double ratio);

}  // namespace durprobe::text
