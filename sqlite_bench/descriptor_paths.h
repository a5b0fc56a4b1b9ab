// SQLite keeps a path through a held descriptor (/proc/self/fd/N/db, the scratch directory as
// durprobe holds it) as given. Its unix VFS resolves symlinks in xFullPathname, and would read
// the descriptor's link back to the directory's name, which another user may have pointed
// elsewhere by then.
#pragma once

#include <sqlite3.h>

#include "platform/status.h"

namespace durprobe::sqlite_bench {

// Whether name is a path through a held descriptor, to be kept as given.
bool IsDescriptorPath(const char* name);
// xFullPathname for such a path: name copied as given (SQLITE_CANTOPEN when n is too small).
int KeepPathAsGiven(const char* name, int n, char* out);
// Once per process: registers as SQLite's default a copy of the default VFS whose
// xFullPathname keeps such paths as given (and resolves every other one as before), so every
// connection opened with the default VFS keeps them. Idempotent.
Status KeepDescriptorPaths();

}  // namespace durprobe::sqlite_bench
