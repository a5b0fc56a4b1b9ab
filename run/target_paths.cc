#include "run/target_paths.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace durprobe::run {

Result<std::vector<std::string>> ResolveTargets(platform::Platform& platform,
                                                const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    switch (platform.KindOf(p)) {
      case platform::PathKind::kMissing: {
        // stat failed: absent, or present but out of reach (EACCES on a parent, ELOOP).
        Result<platform::FileStat> st = platform.Stat(p);
        if (!st.ok() && st.status().error_number() != ENOENT) {
          // The errno's text alone: the status's message names the path again ("stat PATH: ...").
          int err = st.status().error_number();
          const char* hint = err == EACCES  ? " (check the permissions of its parent directories)"
                             : err == ELOOP ? " (a symlink on the way leads back to itself)"
                                            : "";
          return Status::InvalidArgument(
              fmt::format("cannot reach path '{}': {}{}", p, std::strerror(err), hint));
        }
        return Status::InvalidArgument(fmt::format("path '{}' does not exist", p));
      }
      case platform::PathKind::kDirectory:
        break;
      default:
        return Status::InvalidArgument(
            fmt::format("path '{}' is not a directory (durprobe measures inside a directory)", p));
    }
    Result<std::string> real = platform.RealPath(p);
    if (!real.ok()) return Status::InvalidArgument(real.status().message());
    out.push_back(*real);
  }
  return out;
}

}  // namespace durprobe::run
