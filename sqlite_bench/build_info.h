// What the linked SQLite library is and how it was built: the facts that change how many syncs a
// commit costs (default synchronous levels, directory syncs) and which call a sync becomes.
#pragma once

#include <string>
#include <vector>

#include "platform/platform.h"

namespace durprobe::sqlite_bench {

struct SqliteBuildInfo {
  std::string version;
  std::string source_id;
  std::vector<std::string> compile_options;
  std::string default_synchronous;      // from SQLITE_DEFAULT_SYNCHRONOUS (FULL when absent)
  std::string default_wal_synchronous;  // SQLITE_DEFAULT_WAL_SYNCHRONOUS (else the above)
  bool dirsync = true;                  // false when built with SQLITE_DISABLE_DIRSYNC
  int default_wal_autocheckpoint = 1000;
  bool operator==(const SqliteBuildInfo&) const = default;
};

SqliteBuildInfo QueryBuildInfo();

// The longest file name, in bytes, the default VFS can open (its mxPathname: 512 for the unix
// VFS). It resolves every symlink and makes a relative name absolute first, so neither a link
// nor a working directory can shorten what it sees.
std::size_t SqliteMaxPathBytes();

// The probe primitive name ("fdatasync", "fsync", "full_fsync") SQLite's unix VFS turns a sync
// into on this platform: fdatasync where the OS has it, fsync on macOS, F_FULLFSYNC there when
// PRAGMA fullfsync is on. Asked through the platform seam, never by #ifdef.
std::string SqliteSyncPrimitive(platform::Platform& platform, bool fullfsync);

}  // namespace durprobe::sqlite_bench
