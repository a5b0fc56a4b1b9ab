// Messages name a scratch directory by its real path, never by the /proc/self/fd path durprobe
// works through (Platform::DescriptorPath): a ScratchDir registers the pair while it lives, and
// every Status message is mapped here, the one place that turns one into the other.
#pragma once

#include <string>
#include <string_view>

namespace durprobe::platform {

// How a path through a held descriptor begins (Linux; see Platform::DescriptorPath).
inline constexpr std::string_view kDescriptorPathPrefix = "/proc/self/fd/";

// From now on ShownPaths writes `shown` where text names `descriptor_path`.
void ShowDescriptorPathAs(const std::string& descriptor_path, const std::string& shown);
void ForgetDescriptorPath(const std::string& descriptor_path);
// text with every registered descriptor path (as a whole path component) replaced by its name.
std::string ShownPaths(std::string text);

}  // namespace durprobe::platform
