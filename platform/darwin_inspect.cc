// macOS identification through statfs(2) alone. Compiled only on Apple; NOT built or tested on
// the project's Linux CI. The pure part (statfs_mount.cc) is tested on Linux with a snapshot.
#include "platform/inspect.h"
#include "platform/statfs_mount.h"

namespace durprobe::platform {

Result<MountInfo> InspectPath(Platform& p, const std::string& path, const InspectRoots&) {
  Result<std::string> real = p.RealPath(path);
  if (!real.ok()) return real.status();
  Result<FsStat> st = p.StatFs(*real);
  if (!st.ok()) return st.status();
  MountInfo m = MountFromStatfs(*st, *real);
  m.notes.push_back("macOS: identified through statfs only; container detection does not apply");
  return m;
}

}  // namespace durprobe::platform
