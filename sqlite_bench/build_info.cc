#include "sqlite_bench/build_info.h"

#include <sqlite3.h>

#include <string_view>

namespace durprobe::sqlite_bench {
namespace {

std::string LevelName(std::string_view digit) {
  if (digit == "0") return "OFF";
  if (digit == "1") return "NORMAL";
  if (digit == "2") return "FULL";
  if (digit == "3") return "EXTRA";
  return std::string(digit);
}

}  // namespace

std::size_t SqliteMaxPathBytes() {
  sqlite3_vfs* vfs = sqlite3_vfs_find(nullptr);
  return vfs == nullptr ? 0 : static_cast<std::size_t>(vfs->mxPathname);
}

SqliteBuildInfo QueryBuildInfo() {
  SqliteBuildInfo info;
  info.version = sqlite3_libversion();
  info.source_id = sqlite3_sourceid();
  std::string sync, wal_sync;
  for (int i = 0; const char* opt = sqlite3_compileoption_get(i); ++i) {
    std::string_view o = opt;
    info.compile_options.emplace_back(o);
    if (o.starts_with("DEFAULT_SYNCHRONOUS=")) sync = LevelName(o.substr(20));
    if (o.starts_with("DEFAULT_WAL_SYNCHRONOUS=")) wal_sync = LevelName(o.substr(24));
    if (o.starts_with("DEFAULT_WAL_AUTOCHECKPOINT=")) {
      info.default_wal_autocheckpoint = std::stoi(std::string(o.substr(27)));
    }
    if (o == "DISABLE_DIRSYNC") info.dirsync = false;
  }
  info.default_synchronous = sync.empty() ? "FULL" : sync;
  info.default_wal_synchronous = wal_sync.empty() ? info.default_synchronous : wal_sync;
  return info;
}

std::string SqliteSyncPrimitive(platform::Platform& platform, bool fullfsync) {
  // F_FULLFSYNC exists only on Apple systems, whose unix VFS uses fsync, not fdatasync.
  if (platform.SupportsSync(platform::SyncCall::kFullFsync).ok()) {
    return fullfsync ? "full_fsync" : "fsync";
  }
  if (platform.SupportsSync(platform::SyncCall::kFdatasync).ok()) return "fdatasync";
  return "fsync";
}

}  // namespace durprobe::sqlite_bench
