// The paths a measuring command is given: checked to be reachable directories, then resolved.
#pragma once

#include <string>
#include <vector>

#include "platform/platform.h"

namespace durprobe::run {

// Absolute, symlink-resolved directories; InvalidArgument naming the first bad path.
Result<std::vector<std::string>> ResolveTargets(platform::Platform& platform,
                                                const std::vector<std::string>& paths);

}  // namespace durprobe::run
