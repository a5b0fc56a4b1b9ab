#include "sqlite_bench/descriptor_paths.h"

#include <cstring>
#include <mutex>
#include <string>
#include <string_view>

#include "platform/shown_paths.h"

namespace durprobe::sqlite_bench {
namespace {

sqlite3_vfs g_keeping_vfs;               // the default VFS, but for xFullPathname
sqlite3_vfs* g_resolving_vfs = nullptr;  // the default it copies

int KeepingFullPathname(sqlite3_vfs*, const char* name, int n, char* out) {
  if (IsDescriptorPath(name)) return KeepPathAsGiven(name, n, out);
  return g_resolving_vfs->xFullPathname(g_resolving_vfs, name, n, out);
}

}  // namespace

bool IsDescriptorPath(const char* name) {
  return name != nullptr && std::string_view(name).starts_with(platform::kDescriptorPathPrefix);
}

int KeepPathAsGiven(const char* name, int n, char* out) {
  std::size_t size = std::strlen(name) + 1;
  if (n < 0 || size > static_cast<std::size_t>(n)) return SQLITE_CANTOPEN;
  std::memcpy(out, name, size);
  return SQLITE_OK;
}

Status KeepDescriptorPaths() {
  static std::once_flag once;
  static int rc = SQLITE_OK;
  std::call_once(once, [] {
    g_resolving_vfs = sqlite3_vfs_find(nullptr);
    if (g_resolving_vfs == nullptr) {
      rc = SQLITE_ERROR;
      return;
    }
    // A copy keeps the default's pAppData, sizes and methods: SQLite's unix VFS reads its own
    // settings from the VFS it is called with.
    g_keeping_vfs = *g_resolving_vfs;
    g_keeping_vfs.pNext = nullptr;
    // Named as a unix VFS, which it is but for one method: the counting shim infers the unix
    // VFS's directory syncs from its parent's name.
    g_keeping_vfs.zName = "unix-keep-paths";
    g_keeping_vfs.xFullPathname = KeepingFullPathname;
    rc = sqlite3_vfs_register(&g_keeping_vfs, /*makeDflt=*/1);
  });
  if (rc != SQLITE_OK) {
    return Status::Error(std::string("cannot register SQLite's default VFS: ") +
                         sqlite3_errstr(rc));
  }
  return Status::Ok();
}

}  // namespace durprobe::sqlite_bench
