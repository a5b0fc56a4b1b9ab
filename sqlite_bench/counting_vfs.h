// A VFS shim that counts and times what SQLite asks of the filesystem, per file kind, without
// changing it: every call, flag and sync flag goes to the wrapped (parent) VFS unchanged.
//
// Directory syncs cannot be seen as calls at the VFS boundary: SQLite's unix VFS syncs the
// directory inside xSync (once, on the first xSync of a journal, super-journal or WAL handle it
// opened with SQLITE_OPEN_CREATE) and inside xDelete (when syncDir is set). When the parent is a
// unix VFS built without SQLITE_DISABLE_DIRSYNC, the shim counts those inferred directory syncs in
// `dir_syncs`; their time is inside the xSync / xDelete time of the file that triggered them,
// and both count as sync time.
#pragma once

#include <sqlite3.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "platform/platform.h"
#include "sqlite_bench/vfs_counts.h"

namespace durprobe::sqlite_bench {

// The kind SQLite declares in xOpen's flags.
FileKind ClassifyOpenFlags(int flags);


// For a connection opened through a CountingVfs: the errno of its last failed write, truncate
// or sync (CountingVfs::TakeFailedErrno), taken once; 0 for other connections. SQLite records
// the errno itself (sqlite3_system_errno) only for errors raised inside a statement, not for
// those of the commit that ends it.
int TakeFailedErrno(sqlite3* db);

// One registered shim. It counts for whichever connections open through its name; it is not
// thread-safe: one workload thread owns it. Unregisters itself when destroyed.
class CountingVfs {
 public:
  // Wraps the default VFS (or parent_name) and registers it as `name`, not as the default.
  static Result<std::unique_ptr<CountingVfs>> Register(platform::Platform& platform,
                                                       const std::string& name,
                                                       const char* parent_name = nullptr);
  ~CountingVfs();
  CountingVfs(const CountingVfs&) = delete;
  CountingVfs& operator=(const CountingVfs&) = delete;

  const char* name() const { return name_.c_str(); }
  const char* parent_name() const;
  // Whether directory syncs are inferred (unix parent, SQLITE_DISABLE_DIRSYNC absent).
  bool infers_dir_syncs() const { return infer_dirsync_; }
  // The errno of the last write, truncate or sync that failed, read from the parent file right
  // away (SQLITE_FCNTL_LAST_ERRNO): SQLite's cleanup after an I/O error makes more system calls,
  // so the thread's errno no longer names the failure by the time sqlite3_system_errno() asks.
  // xGetLastError hands it out once, then forwards to the parent again.
  void NoteFailedErrno(int err) { failed_errno_.store(err); }
  int TakeFailedErrno() { return failed_errno_.exchange(0); }

  void set_phase(Phase p) { phase_ = p; }
  Phase phase() const { return phase_; }
  const VfsCounts& counts(Phase p) const { return counts_[static_cast<int>(p)]; }
  VfsCounts Total() const;
  void Reset();

  // Used by the shim's callbacks.
  VfsCounts& current() { return counts_[static_cast<int>(phase_)]; }
  std::uint64_t Now() { return platform_.NowNanos(); }
  sqlite3_vfs* parent() { return parent_; }

 private:
  CountingVfs(platform::Platform& platform, std::string name, sqlite3_vfs* parent);

  platform::Platform& platform_;
  std::string name_;
  std::atomic<int> failed_errno_{0};
  sqlite3_vfs* parent_;
  sqlite3_vfs vfs_{};
  bool infer_dirsync_ = false;
  bool registered_ = false;
  Phase phase_ = Phase::kSetup;
  std::array<VfsCounts, kPhaseCount> counts_{};
};

}  // namespace durprobe::sqlite_bench
