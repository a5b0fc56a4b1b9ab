#include "sqlite_bench/crash_vfs.h"

#include <cstring>
#include <string_view>

namespace durprobe::sqlite_bench {
namespace {

constexpr int kSectorSize = 4096;  // what the unix VFS reports (SQLITE_DEFAULT_SECTOR_SIZE)
constexpr int kJournalLike = SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_SUPER_JOURNAL | SQLITE_OPEN_WAL;

struct CrashFile {
  sqlite3_file base;
  CrashVfs* owner;
  int inode;
  bool dirsync_pending;  // as the unix VFS: the next successful xSync also syncs the directory
  const char* path;      // SQLite keeps it alive while the file is open; nullptr for temp files
};

CrashFile* Cf(sqlite3_file* f) { return reinterpret_cast<CrashFile*>(f); }
CrashDisk& DiskOf(sqlite3_file* f) { return Cf(f)->owner->disk(); }
CrashVfs* Owner(sqlite3_vfs* vfs) { return static_cast<CrashVfs*>(vfs->pAppData); }

int FileClose(sqlite3_file*) { return SQLITE_OK; }

int FileRead(sqlite3_file* f, void* buf, int amt, sqlite3_int64 off) {
  std::size_t got = DiskOf(f).Read(Cf(f)->inode, buf, static_cast<std::size_t>(amt),
                                   static_cast<std::uint64_t>(off));
  if (got == static_cast<std::size_t>(amt)) return SQLITE_OK;
  std::memset(static_cast<char*>(buf) + got, 0, static_cast<std::size_t>(amt) - got);
  return SQLITE_IOERR_SHORT_READ;
}

int FileWrite(sqlite3_file* f, const void* buf, int amt, sqlite3_int64 off) {
  if (!Cf(f)->owner->Admit(false)) return SQLITE_IOERR_WRITE;
  DiskOf(f).Write(Cf(f)->inode, static_cast<std::uint64_t>(off), buf,
                  static_cast<std::size_t>(amt));
  return SQLITE_OK;
}

int FileTruncate(sqlite3_file* f, sqlite3_int64 size) {
  if (!Cf(f)->owner->Admit(false)) return SQLITE_IOERR_TRUNCATE;
  DiskOf(f).Truncate(Cf(f)->inode, static_cast<std::uint64_t>(size));
  return SQLITE_OK;
}

int FileSync(sqlite3_file* f, int) {
  CrashFile* cf = Cf(f);
  if (!cf->owner->Admit(true)) return SQLITE_IOERR_FSYNC;
  DiskOf(f).SyncFile(cf->inode);
  if (cf->dirsync_pending) {
    DiskOf(f).SyncDirectory();
    cf->dirsync_pending = false;
  }
  return SQLITE_OK;
}

int FileSize(sqlite3_file* f, sqlite3_int64* size) {
  *size = static_cast<sqlite3_int64>(DiskOf(f).Size(Cf(f)->inode));
  return SQLITE_OK;
}

int FileLock(sqlite3_file*, int) { return SQLITE_OK; }
int FileUnlock(sqlite3_file*, int) { return SQLITE_OK; }
int FileCheckReserved(sqlite3_file*, int* out) {
  *out = 0;
  return SQLITE_OK;
}
int FileControl(sqlite3_file*, int, void*) { return SQLITE_NOTFOUND; }
int FileSectorSize(sqlite3_file*) { return kSectorSize; }
int FileDeviceCharacteristics(sqlite3_file* f) {
  return Cf(f)->owner->powersafe_overwrite() ? SQLITE_IOCAP_POWERSAFE_OVERWRITE : 0;
}

int FileShmMap(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
  auto& regions = Cf(f)->owner->ShmRegions(Cf(f)->path ? Cf(f)->path : "");
  if (static_cast<std::size_t>(region) >= regions.size()) {
    if (!extend) {
      *out = nullptr;
      return SQLITE_OK;
    }
    while (regions.size() <= static_cast<std::size_t>(region)) {
      regions.push_back(std::make_unique<char[]>(static_cast<std::size_t>(size)));
    }
  }
  *out = regions[static_cast<std::size_t>(region)].get();
  return SQLITE_OK;
}

int FileShmLock(sqlite3_file*, int, int, int) { return SQLITE_OK; }
void FileShmBarrier(sqlite3_file*) {}
int FileShmUnmap(sqlite3_file* f, int delete_flag) {
  if (delete_flag) Cf(f)->owner->DropShm(Cf(f)->path ? Cf(f)->path : "");
  return SQLITE_OK;
}

const sqlite3_io_methods kMethods = {2,
                                     FileClose,
                                     FileRead,
                                     FileWrite,
                                     FileTruncate,
                                     FileSync,
                                     FileSize,
                                     FileLock,
                                     FileUnlock,
                                     FileCheckReserved,
                                     FileControl,
                                     FileSectorSize,
                                     FileDeviceCharacteristics,
                                     FileShmMap,
                                     FileShmLock,
                                     FileShmBarrier,
                                     FileShmUnmap,
                                     nullptr,
                                     nullptr};

int VfsOpen(sqlite3_vfs* vfs, const char* path, sqlite3_file* f, int flags, int* out_flags) {
  CrashFile* cf = Cf(f);
  std::memset(cf, 0, sizeof(*cf));
  cf->owner = Owner(vfs);
  CrashDisk& disk = cf->owner->disk();
  if (path == nullptr || (flags & SQLITE_OPEN_DELETEONCLOSE)) {
    cf->inode = disk.CreateAnonymous();
  } else {
    std::string name = CrashDiskName(path);
    cf->inode = disk.Lookup(name);
    if (cf->inode == CrashDisk::kNoFile) {
      if (!(flags & SQLITE_OPEN_CREATE)) return SQLITE_CANTOPEN;
      if (!cf->owner->Admit(false)) return SQLITE_IOERR;
      cf->inode = disk.Create(name);
    }
    cf->path = path;
    cf->dirsync_pending = (flags & SQLITE_OPEN_CREATE) && (flags & kJournalLike);
  }
  if (out_flags) *out_flags = flags;
  f->pMethods = &kMethods;
  return SQLITE_OK;
}

int VfsDelete(sqlite3_vfs* vfs, const char* path, int sync_dir) {
  CrashVfs* owner = Owner(vfs);
  std::string name = CrashDiskName(path);
  if (owner->disk().Lookup(name) == CrashDisk::kNoFile) return SQLITE_IOERR_DELETE_NOENT;
  if (!owner->Admit(false)) return SQLITE_IOERR_DELETE;
  owner->disk().Unlink(name);
  if (sync_dir & 1) owner->disk().SyncDirectory();
  return SQLITE_OK;
}

// As the unix VFS: an empty regular file does not "exist" (a truncated journal is not hot).
int VfsAccess(sqlite3_vfs* vfs, const char* path, int, int* out) {
  const CrashDisk& disk = Owner(vfs)->disk();
  int inode = disk.Lookup(CrashDiskName(path));
  *out = inode != CrashDisk::kNoFile && disk.Size(inode) > 0;
  return SQLITE_OK;
}

int VfsFullPathname(sqlite3_vfs*, const char* name, int n, char* out) {
  sqlite3_snprintf(n, out, "%s%s", name[0] == '/' ? "" : "/", name);
  return SQLITE_OK;
}

int VfsRandomness(sqlite3_vfs*, int n, char* out) {
  SplitMix64 rng(static_cast<std::uint64_t>(n));
  for (int i = 0; i < n; ++i) out[i] = static_cast<char>(rng.Next() & 0xff);
  return n;
}

int VfsSleep(sqlite3_vfs*, int us) { return us; }
constexpr sqlite3_int64 kFixedTimeMs = 210866760000000;  // 2000-01-01 as a Julian day in ms
int VfsCurrentTime(sqlite3_vfs*, double* out) {
  *out = double(kFixedTimeMs) / 86400000.0;
  return SQLITE_OK;
}
int VfsCurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* out) {
  *out = kFixedTimeMs;
  return SQLITE_OK;
}
int VfsGetLastError(sqlite3_vfs*, int, char*) { return 0; }

}  // namespace

std::string CrashDiskName(const char* path) {
  std::string_view p = path ? path : "";
  std::size_t slash = p.rfind('/');
  return std::string(slash == std::string_view::npos ? p : p.substr(slash + 1));
}

Result<std::unique_ptr<CrashVfs>> CrashVfs::Register(const std::string& name, DeviceModel device) {
  if (sqlite3_vfs_find(name.c_str()) != nullptr) {
    return Status::Error("an SQLite VFS named " + name + " is already registered");
  }
  std::unique_ptr<CrashVfs> vfs(new CrashVfs(name, device));
  sqlite3_vfs& v = vfs->vfs_;
  v.iVersion = 2;
  v.szOsFile = static_cast<int>(sizeof(CrashFile));
  v.mxPathname = 512;
  v.zName = vfs->name_.c_str();
  v.pAppData = vfs.get();
  v.xOpen = VfsOpen;
  v.xDelete = VfsDelete;
  v.xAccess = VfsAccess;
  v.xFullPathname = VfsFullPathname;
  v.xRandomness = VfsRandomness;
  v.xSleep = VfsSleep;
  v.xCurrentTime = VfsCurrentTime;
  v.xGetLastError = VfsGetLastError;
  v.xCurrentTimeInt64 = VfsCurrentTimeInt64;
  int rc = sqlite3_vfs_register(&v, /*makeDflt=*/0);
  if (rc != SQLITE_OK) {
    return Status::Error(std::string("sqlite3_vfs_register: ") + sqlite3_errstr(rc));
  }
  vfs->registered_ = true;
  return vfs;
}

CrashVfs::~CrashVfs() {
  if (registered_) sqlite3_vfs_unregister(&vfs_);
}

void CrashVfs::Reset() {
  disk_ = CrashDisk(disk_.device());
  shm_.clear();
  ArmCrash(kNever);
}

void CrashVfs::ArmCrash(std::uint64_t at_call) {
  calls_ = syncs_ = 0;
  crashed_ = false;
  crash_at_call_ = at_call;
  crash_at_sync_ = kNever;
}

void CrashVfs::ArmCrashAtSync(std::uint64_t at_sync) {
  ArmCrash(kNever);
  crash_at_sync_ = at_sync;
}

bool CrashVfs::Admit(bool is_sync) {
  if (crashed_) return false;
  ++calls_;
  if (is_sync) ++syncs_;
  bool at_call = crash_at_call_ != kNever && calls_ >= crash_at_call_;
  bool at_sync = is_sync && crash_at_sync_ != kNever && syncs_ >= crash_at_sync_;
  crashed_ = at_call || at_sync;
  return !crashed_;
}

}  // namespace durprobe::sqlite_bench
