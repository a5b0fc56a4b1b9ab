#include "sqlite_bench/powercut_sqlite_copy.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <array>
#include <cstring>
#include <memory>
#include <vector>

namespace durprobe::sqlite_bench {
namespace {

// The journal magic (SQLite's file format, "The Rollback Journal"); a super-journal record ends
// with it after the name's length and checksum.
constexpr std::array<std::uint8_t, 8> kJournalMagic = {0xd9, 0xd5, 0x05, 0xf9,
                                                       0x20, 0xa1, 0x63, 0xd7};
constexpr char kConfinedVfsName[] = "durprobe-confined";

// The private directory every path must be directly inside ("<root>/<name>"); set while the
// confined VFS is registered (verify is single-threaded).
std::string g_confined_root;  // NOLINT: the VFS's one piece of state
sqlite3_vfs* g_confined_parent = nullptr;
sqlite3_vfs g_confined_vfs{};

bool ConfinedInside(const char* name) {
  if (name == nullptr) return true;  // SQLite's own anonymous temporary file
  const std::string_view n(name);
  const std::string prefix = g_confined_root + "/";
  if (!n.starts_with(prefix)) return false;
  const std::string_view rest = n.substr(prefix.size());
  return !rest.empty() && rest.find('/') == std::string_view::npos && rest != ".." && rest != ".";
}

int ConfinedOpen(sqlite3_vfs*, const char* name, sqlite3_file* file, int flags, int* out) {
  if (!ConfinedInside(name)) return SQLITE_CANTOPEN;
  return g_confined_parent->xOpen(g_confined_parent, name, file, flags, out);
}
int ConfinedDelete(sqlite3_vfs*, const char* name, int sync_dir) {
  if (!ConfinedInside(name)) return SQLITE_IOERR_DELETE;
  return g_confined_parent->xDelete(g_confined_parent, name, sync_dir);
}
int ConfinedAccess(sqlite3_vfs*, const char* name, int flags, int* out) {
  if (!ConfinedInside(name)) {
    *out = 0;
    return SQLITE_OK;
  }
  return g_confined_parent->xAccess(g_confined_parent, name, flags, out);
}
int ConfinedFullPathname(sqlite3_vfs*, const char* name, int n, char* out) {
  const int rc = g_confined_parent->xFullPathname(g_confined_parent, name, n, out);
  if (rc != SQLITE_OK && rc != SQLITE_OK_SYMLINK) return rc;
  return ConfinedInside(out) ? rc : SQLITE_CANTOPEN;
}

// Registers the confined VFS over root (a real path) for as long as it lives.
class ConfinedVfs {
 public:
  static Result<std::unique_ptr<ConfinedVfs>> Register(const std::string& root) {
    sqlite3_vfs* parent = sqlite3_vfs_find("unix");
    if (parent == nullptr) return Status::Unsupported("SQLite has no unix VFS here");
    g_confined_parent = parent;
    g_confined_root = root;
    g_confined_vfs = *parent;
    g_confined_vfs.pNext = nullptr;
    g_confined_vfs.zName = kConfinedVfsName;
    g_confined_vfs.xOpen = ConfinedOpen;
    g_confined_vfs.xDelete = ConfinedDelete;
    g_confined_vfs.xAccess = ConfinedAccess;
    g_confined_vfs.xFullPathname = ConfinedFullPathname;
    const int rc = sqlite3_vfs_register(&g_confined_vfs, 0);
    if (rc != SQLITE_OK) {
      return Status::Error(std::string("sqlite3_vfs_register: ") + sqlite3_errstr(rc));
    }
    return std::unique_ptr<ConfinedVfs>(new ConfinedVfs());
  }
  ~ConfinedVfs() { sqlite3_vfs_unregister(&g_confined_vfs); }
  ConfinedVfs(const ConfinedVfs&) = delete;
  ConfinedVfs& operator=(const ConfinedVfs&) = delete;

 private:
  ConfinedVfs() = default;
};

// Copies the open file from into a new file name under the private directory.
Status CopyInto(platform::Platform& platform, int from, const platform::PrivateDirectory& to,
                const std::string& name) {
  platform::OpenFlags flags;
  flags.create = true;
  flags.exclusive = true;
  Result<platform::FileHandle> out = platform.Open(to.path + "/" + name, flags);
  if (!out.ok()) return out.status();
  std::vector<char> buf(1 << 20);
  for (std::uint64_t at = 0;;) {
    Result<std::size_t> got = platform.PRead(from, buf.data(), buf.size(), at);
    if (!got.ok()) return got.status();
    if (*got == 0) break;
    if (Status s = platform.PWrite(out->get(), buf.data(), *got, at); !s.ok()) return s;
    at += *got;
  }
  return out->Close();
}

}  // namespace

bool NamesSuperJournal(std::span<const std::uint8_t> tail16) {
  if (tail16.size() < 16) return false;
  return std::memcmp(tail16.data() + tail16.size() - 8, kJournalMagic.data(), 8) == 0;
}

Result<SqliteReadBack> ReadBackSqliteCopy(platform::Platform& platform, platform::OwnedHandle db,
                                          const probes::WitnessRun& run,
                                          const OpenRunFile& open_file) {
  Result<platform::OwnedHandle> journal = open_file(std::string(kPowercutDbName) + "-journal");
  if (!journal.ok()) return journal.status();
  Result<platform::OwnedHandle> wal = open_file(std::string(kPowercutDbName) + "-wal");
  if (!wal.ok()) return wal.status();
  if (journal->handle.valid() && journal->entry.size >= 16) {
    std::array<std::uint8_t, 16> tail{};
    Result<std::size_t> got =
        platform.PRead(journal->handle.get(), tail.data(), tail.size(), journal->entry.size - 16);
    if (!got.ok()) return got.status();
    if (*got == tail.size() && NamesSuperJournal(tail)) {
      return Status::InvalidArgument(fmt::format(
          "{}-journal names a super-journal, which durprobe's writer never makes: not the "
          "writer's journal, refused (SQLite would open and may delete the file it names)",
          kPowercutDbName));
    }
  }
  Result<platform::PrivateDirectory> priv = MakePrivateDirectory(platform, "durprobe-verify-");
  if (!priv.ok()) return priv.status();
  struct Cleanup {
    platform::Platform& p;
    platform::PrivateDirectory& d;
    ~Cleanup() { platform::RemovePrivateDirectory(p, d); }
  } cleanup{platform, *priv};
  Result<std::string> root = platform.RealPath(priv->path);
  if (!root.ok()) return root.status();
  if (Status s = CopyInto(platform, db.handle.get(), *priv, kPowercutDbName); !s.ok()) return s;
  if (journal->handle.valid()) {
    const std::string name = std::string(kPowercutDbName) + "-journal";
    if (Status s = CopyInto(platform, journal->handle.get(), *priv, name); !s.ok()) return s;
  }
  if (wal->handle.valid()) {
    const std::string name = std::string(kPowercutDbName) + "-wal";
    if (Status s = CopyInto(platform, wal->handle.get(), *priv, name); !s.ok()) return s;
  }
  Result<std::unique_ptr<ConfinedVfs>> vfs = ConfinedVfs::Register(*root);
  if (!vfs.ok()) return vfs.status();
  return ReadBackSqliteRecords(*root, run, kConfinedVfsName);
}

}  // namespace durprobe::sqlite_bench
