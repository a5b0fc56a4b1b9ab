#include "sqlite_bench/counting_vfs.h"

#include <cstring>
#include <string_view>

#include "sqlite_bench/descriptor_paths.h"

namespace durprobe::sqlite_bench {
namespace {

// The shim's file: SQLite allocates szOsFile bytes; the parent's file lives right after this
// struct. The io_methods copy is per file so iVersion and the xShm* slots can mirror the parent's
// methods for this very file (the unix VFS hands out several method tables).
struct ShimFile {
  sqlite3_file base;
  CountingVfs* owner;
  FileKind kind;
  bool dirsync_pending;  // unix VFS will sync the directory inside the next successful xSync
  bool grew;             // written past its end since the last xSync
  sqlite3_int64 size;    // the file's size as far as this handle's writes and truncates say
  sqlite3_io_methods methods;
  sqlite3_file* real() { return reinterpret_cast<sqlite3_file*>(this + 1); }
};
static_assert(sizeof(ShimFile) % 8 == 0, "the parent's file must stay 8-byte aligned");

ShimFile* Shim(sqlite3_file* f) { return reinterpret_cast<ShimFile*>(f); }
KindCounts& Counts(ShimFile* s) { return s->owner->current().of(s->kind); }
sqlite3_file* Real(sqlite3_file* f) { return Shim(f)->real(); }
const sqlite3_io_methods* RealMethods(sqlite3_file* f) { return Real(f)->pMethods; }

// rc, after noting the parent file's errno when the call failed (see NoteFailedErrno).
int Noted(sqlite3_file* f, int rc) {
  if (rc == SQLITE_OK) return rc;
  int err = 0;
  if (RealMethods(f)->xFileControl(Real(f), SQLITE_FCNTL_LAST_ERRNO, &err) == SQLITE_OK && err) {
    Shim(f)->owner->NoteFailedErrno(err);
  }
  return rc;
}

int FileClose(sqlite3_file* f) { return RealMethods(f)->xClose(Real(f)); }

int FileRead(sqlite3_file* f, void* buf, int amt, sqlite3_int64 off) {
  KindCounts& c = Counts(Shim(f));
  ++c.reads;
  c.read_bytes += static_cast<std::uint64_t>(amt);
  return RealMethods(f)->xRead(Real(f), buf, amt, off);
}

int FileWrite(sqlite3_file* f, const void* buf, int amt, sqlite3_int64 off) {
  ShimFile* s = Shim(f);
  KindCounts& c = Counts(s);
  ++c.writes;
  c.write_bytes += static_cast<std::uint64_t>(amt);
  if (off + amt > s->size) {
    s->size = off + amt;
    s->grew = true;
  }
  return Noted(f, RealMethods(f)->xWrite(Real(f), buf, amt, off));
}

int FileTruncate(sqlite3_file* f, sqlite3_int64 size) {
  ++Counts(Shim(f)).truncates;
  if (size < Shim(f)->size) Shim(f)->size = size;
  return Noted(f, RealMethods(f)->xTruncate(Real(f), size));
}

int FileSync(sqlite3_file* f, int flags) {
  ShimFile* s = Shim(f);
  std::uint64_t start = s->owner->Now();
  int rc = Noted(f, RealMethods(f)->xSync(Real(f), flags));
  std::uint64_t elapsed = s->owner->Now() - start;
  KindCounts& c = Counts(s);  // looked up after the call: the phase cannot change inside it
  ++c.syncs;
  c.sync_ns += elapsed;
  if ((flags & 0x0F) == SQLITE_SYNC_FULL) ++c.sync_full;
  if ((flags & 0x0F) == SQLITE_SYNC_NORMAL) ++c.sync_normal;
  if (flags & SQLITE_SYNC_DATAONLY) ++c.sync_dataonly;
  if (s->grew) ++c.syncs_grown;
  s->grew = false;
  if (rc == SQLITE_OK && s->dirsync_pending) {
    ++c.dir_syncs;
    s->dirsync_pending = false;
  }
  return rc;
}

int FileSize(sqlite3_file* f, sqlite3_int64* size) {
  return RealMethods(f)->xFileSize(Real(f), size);
}

int FileLock(sqlite3_file* f, int level) {
  ++Counts(Shim(f)).locks;
  return RealMethods(f)->xLock(Real(f), level);
}

int FileUnlock(sqlite3_file* f, int level) {
  ++Counts(Shim(f)).unlocks;
  return RealMethods(f)->xUnlock(Real(f), level);
}

int FileCheckReserved(sqlite3_file* f, int* out) {
  return RealMethods(f)->xCheckReservedLock(Real(f), out);
}

int FileControl(sqlite3_file* f, int op, void* arg) {
  return RealMethods(f)->xFileControl(Real(f), op, arg);
}

int FileSectorSize(sqlite3_file* f) { return RealMethods(f)->xSectorSize(Real(f)); }

int FileDeviceCharacteristics(sqlite3_file* f) {
  return RealMethods(f)->xDeviceCharacteristics(Real(f));
}

int FileShmMap(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
  return RealMethods(f)->xShmMap(Real(f), region, size, extend, out);
}

int FileShmLock(sqlite3_file* f, int offset, int n, int flags) {
  ++Counts(Shim(f)).shm_locks;
  return RealMethods(f)->xShmLock(Real(f), offset, n, flags);
}

void FileShmBarrier(sqlite3_file* f) { RealMethods(f)->xShmBarrier(Real(f)); }

int FileShmUnmap(sqlite3_file* f, int delete_flag) {
  return RealMethods(f)->xShmUnmap(Real(f), delete_flag);
}

int FileFetch(sqlite3_file* f, sqlite3_int64 off, int amt, void** pp) {
  return RealMethods(f)->xFetch(Real(f), off, amt, pp);
}

int FileUnfetch(sqlite3_file* f, sqlite3_int64 off, void* p) {
  return RealMethods(f)->xUnfetch(Real(f), off, p);
}

// Our methods with the parent's shape: same iVersion, xShm*/xFetch only where the parent has them.
void MirrorMethods(const sqlite3_io_methods& parent, sqlite3_io_methods* m) {
  std::memset(m, 0, sizeof(*m));
  m->iVersion = parent.iVersion;
  m->xClose = FileClose;
  m->xRead = FileRead;
  m->xWrite = FileWrite;
  m->xTruncate = FileTruncate;
  m->xSync = FileSync;
  m->xFileSize = FileSize;
  m->xLock = FileLock;
  m->xUnlock = FileUnlock;
  m->xCheckReservedLock = FileCheckReserved;
  m->xFileControl = FileControl;
  m->xSectorSize = FileSectorSize;
  m->xDeviceCharacteristics = FileDeviceCharacteristics;
  if (parent.iVersion >= 2) {
    if (parent.xShmMap) m->xShmMap = FileShmMap;
    if (parent.xShmLock) m->xShmLock = FileShmLock;
    if (parent.xShmBarrier) m->xShmBarrier = FileShmBarrier;
    if (parent.xShmUnmap) m->xShmUnmap = FileShmUnmap;
  }
  if (parent.iVersion >= 3) {
    if (parent.xFetch) m->xFetch = FileFetch;
    if (parent.xUnfetch) m->xUnfetch = FileUnfetch;
  }
}

CountingVfs* Owner(sqlite3_vfs* vfs) { return static_cast<CountingVfs*>(vfs->pAppData); }
sqlite3_vfs* Parent(sqlite3_vfs* vfs) { return Owner(vfs)->parent(); }

constexpr int kJournalLike = SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_SUPER_JOURNAL | SQLITE_OPEN_WAL;

int VfsOpen(sqlite3_vfs* vfs, const char* name, sqlite3_file* f, int flags, int* out_flags) {
  ShimFile* s = Shim(f);
  s->owner = Owner(vfs);
  s->kind = ClassifyOpenFlags(flags);
  s->dirsync_pending = false;
  s->grew = false;
  s->size = 0;
  sqlite3_vfs* parent = Parent(vfs);
  int rc = parent->xOpen(parent, name, s->real(), flags, out_flags);
  if (s->real()->pMethods == nullptr) {
    f->pMethods = nullptr;
    return rc;
  }
  MirrorMethods(*s->real()->pMethods, &s->methods);
  f->pMethods = &s->methods;
  if (rc == SQLITE_OK) {
    ++Counts(s).opens;
    // An fstat: it tells appends from overwrites and changes nothing SQLite relies on.
    if (s->real()->pMethods->xFileSize(s->real(), &s->size) != SQLITE_OK) s->size = 0;
    s->dirsync_pending = s->owner->infers_dir_syncs() && (flags & SQLITE_OPEN_CREATE) != 0 &&
                         (flags & kJournalLike) != 0;
  }
  return rc;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// xDelete has no open flags to go by; SQLite's own file names say the kind.
FileKind KindOfName(const char* name) {
  std::string_view n = name ? name : "";
  if (EndsWith(n, "-journal")) return FileKind::kJournal;
  if (EndsWith(n, "-wal")) return FileKind::kWal;
  return FileKind::kOther;
}

int VfsDelete(sqlite3_vfs* vfs, const char* name, int sync_dir) {
  CountingVfs* owner = Owner(vfs);
  std::uint64_t start = owner->Now();
  int rc = Parent(vfs)->xDelete(Parent(vfs), name, sync_dir);
  std::uint64_t elapsed = owner->Now() - start;
  KindCounts& c = owner->current().of(KindOfName(name));
  ++c.deletes;
  c.delete_ns += elapsed;
  if (sync_dir & 1) {
    ++c.deletes_dirsync;
    if (rc == SQLITE_OK && owner->infers_dir_syncs()) {
      ++c.dir_syncs;
      // The directory fsync dominates such a delete (the unlink is microseconds): count the
      // call's time as sync time, so time per sync and non-sync time are not skewed.
      c.sync_ns += elapsed;
    }
  }
  return rc;
}

int VfsAccess(sqlite3_vfs* v, const char* name, int flags, int* out) {
  return Parent(v)->xAccess(Parent(v), name, flags, out);
}
int VfsFullPathname(sqlite3_vfs* v, const char* name, int n, char* out) {
  if (IsDescriptorPath(name)) return KeepPathAsGiven(name, n, out);  // the held scratch
  return Parent(v)->xFullPathname(Parent(v), name, n, out);
}
void* VfsDlOpen(sqlite3_vfs* v, const char* name) { return Parent(v)->xDlOpen(Parent(v), name); }
void VfsDlError(sqlite3_vfs* v, int n, char* msg) { Parent(v)->xDlError(Parent(v), n, msg); }
void (*VfsDlSym(sqlite3_vfs* v, void* h, const char* sym))(void) {
  return Parent(v)->xDlSym(Parent(v), h, sym);
}
void VfsDlClose(sqlite3_vfs* v, void* h) { Parent(v)->xDlClose(Parent(v), h); }
int VfsRandomness(sqlite3_vfs* v, int n, char* out) {
  return Parent(v)->xRandomness(Parent(v), n, out);
}
int VfsSleep(sqlite3_vfs* v, int us) { return Parent(v)->xSleep(Parent(v), us); }
int VfsCurrentTime(sqlite3_vfs* v, double* out) { return Parent(v)->xCurrentTime(Parent(v), out); }
int VfsGetLastError(sqlite3_vfs* v, int n, char* out) {
  if (int err = Owner(v)->TakeFailedErrno(); err != 0) return err;
  return Parent(v)->xGetLastError(Parent(v), n, out);
}
int VfsCurrentTimeInt64(sqlite3_vfs* v, sqlite3_int64* out) {
  return Parent(v)->xCurrentTimeInt64(Parent(v), out);
}
int VfsSetSystemCall(sqlite3_vfs* v, const char* name, sqlite3_syscall_ptr p) {
  return Parent(v)->xSetSystemCall(Parent(v), name, p);
}
sqlite3_syscall_ptr VfsGetSystemCall(sqlite3_vfs* v, const char* name) {
  return Parent(v)->xGetSystemCall(Parent(v), name);
}
const char* VfsNextSystemCall(sqlite3_vfs* v, const char* name) {
  return Parent(v)->xNextSystemCall(Parent(v), name);
}

}  // namespace

int TakeFailedErrno(sqlite3* db) {
  sqlite3_vfs* vfs = nullptr;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_VFS_POINTER, &vfs) != SQLITE_OK) return 0;
  if (vfs == nullptr || vfs->xOpen != VfsOpen) return 0;
  return Owner(vfs)->TakeFailedErrno();
}

FileKind ClassifyOpenFlags(int flags) {
  if (flags & SQLITE_OPEN_MAIN_DB) return FileKind::kDb;
  if (flags & SQLITE_OPEN_MAIN_JOURNAL) return FileKind::kJournal;
  if (flags & SQLITE_OPEN_WAL) return FileKind::kWal;
  return FileKind::kOther;  // temp db/journal, subjournal, super-journal, transient
}

CountingVfs::CountingVfs(platform::Platform& platform, std::string name, sqlite3_vfs* parent)
    : platform_(platform), name_(std::move(name)), parent_(parent) {}

Result<std::unique_ptr<CountingVfs>> CountingVfs::Register(platform::Platform& platform,
                                                           const std::string& name,
                                                           const char* parent_name) {
  if (Status kept = KeepDescriptorPaths(); !kept.ok()) return kept;
  sqlite3_vfs* parent = sqlite3_vfs_find(parent_name);
  if (parent == nullptr) {
    return Status::Error(std::string("no SQLite VFS named ") +
                         (parent_name ? parent_name : "(default)"));
  }
  if (sqlite3_vfs_find(name.c_str()) != nullptr) {
    return Status::Error("an SQLite VFS named " + name + " is already registered");
  }
  std::unique_ptr<CountingVfs> shim(new CountingVfs(platform, name, parent));
  shim->infer_dirsync_ = std::string_view(parent->zName).starts_with("unix") &&
                         !sqlite3_compileoption_used("DISABLE_DIRSYNC");
  sqlite3_vfs& v = shim->vfs_;
  v.iVersion = parent->iVersion;
  v.szOsFile = static_cast<int>(sizeof(ShimFile)) + parent->szOsFile;
  v.mxPathname = parent->mxPathname;
  v.zName = shim->name_.c_str();
  v.pAppData = shim.get();
  v.xOpen = VfsOpen;
  v.xDelete = VfsDelete;
  v.xAccess = VfsAccess;
  v.xFullPathname = VfsFullPathname;
  v.xDlOpen = parent->xDlOpen ? VfsDlOpen : nullptr;
  v.xDlError = parent->xDlError ? VfsDlError : nullptr;
  v.xDlSym = parent->xDlSym ? VfsDlSym : nullptr;
  v.xDlClose = parent->xDlClose ? VfsDlClose : nullptr;
  v.xRandomness = VfsRandomness;
  v.xSleep = VfsSleep;
  v.xCurrentTime = VfsCurrentTime;
  v.xGetLastError = parent->xGetLastError ? VfsGetLastError : nullptr;
  if (parent->iVersion >= 2 && parent->xCurrentTimeInt64) v.xCurrentTimeInt64 = VfsCurrentTimeInt64;
  if (parent->iVersion >= 3) {
    if (parent->xSetSystemCall) v.xSetSystemCall = VfsSetSystemCall;
    if (parent->xGetSystemCall) v.xGetSystemCall = VfsGetSystemCall;
    if (parent->xNextSystemCall) v.xNextSystemCall = VfsNextSystemCall;
  }
  int rc = sqlite3_vfs_register(&v, /*makeDflt=*/0);
  if (rc != SQLITE_OK)
    return Status::Error(std::string("sqlite3_vfs_register: ") + sqlite3_errstr(rc));
  shim->registered_ = true;
  return shim;
}

CountingVfs::~CountingVfs() {
  if (registered_) sqlite3_vfs_unregister(&vfs_);
}

const char* CountingVfs::parent_name() const { return parent_->zName; }

VfsCounts CountingVfs::Total() const {
  VfsCounts t;
  for (const VfsCounts& c : counts_) t += c;
  return t;
}

void CountingVfs::Reset() {
  counts_ = {};
  phase_ = Phase::kSetup;
}

}  // namespace durprobe::sqlite_bench
