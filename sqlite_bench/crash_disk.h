// The simulated disk under the crash VFS: one directory of files, each with the content a reader
// sees now ("live") and the content a power cut is certain to keep ("durable"), plus the ordered
// log of what is between the two: unsynced writes and truncations per file, and directory
// operations (create, unlink, rename) that no directory sync has made durable yet.
//
// Model (after SQLite's src/test6.c, extended with the directory): a file sync makes that file's
// logged writes and truncations durable; a directory sync makes every logged directory operation
// durable; nothing else does. At a crash, each logged entry is decided on its own: a write sector
// by sector (old, new, or garbage when sectors are not atomic), a truncation or directory
// operation applied or not. Device properties narrow these choices (DeviceModel).
//
// Files are identified by inode, so an unlinked journal whose unlink never reached the disk comes
// back with its old content, and a file whose creation never reached the disk vanishes with its
// (even synced) content: fsync does not make a new name durable, only a directory sync does.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace durprobe::sqlite_bench {

// What the simulated device guarantees on power loss. The defaults are the conservative ones:
// every property off.
struct DeviceModel {
  std::uint32_t sector_size = 4096;
  bool atomic_sectors = false;    // a sector is all old or all new, never garbage
  bool safe_append = false;       // an append lands in order, before the size grows (no holes)
  bool sequential = false;        // writes reach the disk in issue order (a prefix survives)
  bool ordered_metadata = false;  // directory operations reach the disk in issue order
  // Powersafe overwrite: a torn write scrambles at most the bytes it wrote, never its sector's
  // other bytes. SQLite assumes it unless told psow=0, so crashsim sets it from that choice.
  bool powersafe_overwrite = false;
};

// Deterministic generator (splitmix64): the same seed gives the same crash states everywhere.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next();
  std::uint64_t Below(std::uint64_t n) { return n == 0 ? 0 : Next() % n; }

 private:
  std::uint64_t state_;
};

enum class SectorFate : std::uint8_t { kOld, kNew, kGarbage };

// The fate of one logged entry at a crash: writes decide per sector they touch; truncations and
// directory operations are applied or not.
struct EntryChoice {
  bool apply = false;
  std::vector<SectorFate> sectors;  // writes only, one per sector touched
};

// Name -> content of every file the disk would show after the crash.
using DiskImage = std::map<std::string, std::string>;

class CrashDisk {
 public:
  static constexpr int kNoFile = -1;

  explicit CrashDisk(DeviceModel device = {}) : device_(device) {}

  const DeviceModel& device() const { return device_; }
  // The inode a name refers to now, or kNoFile.
  int Lookup(const std::string& name) const;
  // A new empty file under name (replacing any file of that name); the creation is logged.
  int Create(const std::string& name);
  // A file with no name (SQLite's temporary files): live only, never in an image.
  int CreateAnonymous();
  // Logged; false when the name does not exist.
  bool Unlink(const std::string& name);
  bool Rename(const std::string& from, const std::string& to);

  void Write(int inode, std::uint64_t offset, const void* data, std::size_t n);
  void Truncate(int inode, std::uint64_t size);
  // Reads live content; returns the bytes read (fewer at end of file).
  std::size_t Read(int inode, void* buf, std::size_t n, std::uint64_t offset) const;
  std::uint64_t Size(int inode) const;

  void SyncFile(int inode);
  void SyncDirectory();
  // Everything durable now (the state before the workload under test, as if it had long settled).
  void MakeAllDurable();

  std::size_t pending() const { return log_.size(); }
  // A seeded choice for every logged entry, honouring the device model.
  std::vector<EntryChoice> RandomChoices(SplitMix64& rng) const;
  // Entry i applied in full when bit i of mask is set, dropped otherwise (the model check).
  std::vector<EntryChoice> SubsetChoices(std::uint64_t mask) const;
  // What the disk shows after a crash with these choices; garbage sectors derive from seed.
  DiskImage ImageFor(const std::vector<EntryChoice>& choices, std::uint64_t seed) const;
  // What a reader sees now, for tests.
  DiskImage LiveImage() const;

 private:
  enum class Op { kWrite, kTruncate, kCreate, kUnlink, kRename };
  struct Entry {
    Op op;
    int inode;
    std::uint64_t offset = 0;       // write offset, or truncation size
    std::uint64_t size_before = 0;  // the file's live size before a write (append detection)
    std::string data;               // write bytes
    std::string name, to;           // directory operations
  };
  struct Inode {
    std::string live, durable;
    bool named = true;
  };

  std::size_t SectorsOf(const Entry& e) const;
  static void ApplyDirOp(const Entry& e, std::map<std::string, int>* names);
  void LogDirOp(Op op, int inode, const std::string& name, const std::string& to = "");

  DeviceModel device_;
  std::vector<Inode> inodes_;
  std::map<std::string, int> live_names_, durable_names_;
  std::vector<Entry> log_;
};

}  // namespace durprobe::sqlite_bench
