// Splitting a line of text into its space-separated words: what /proc's tables (mountinfo) and
// the power-cut protocol's lines are made of. Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace durprobe::platform {

// The words of line, split on runs of spaces (none empty); views into line.
std::vector<std::string_view> SplitSpaces(std::string_view line);

// The names a path walks through, "/" and "." parts dropped ("/a//b/./c" -> a, b, c); ".." kept
// for the caller to refuse or resolve.
std::vector<std::string> PathComponents(const std::string& path);

}  // namespace durprobe::platform
