// What the counting VFS shim (counting_vfs.h) counts, as plain data: per file kind and per
// phase of a workload. Free of SQLite's headers, so the report room can read the counts without
// compiling against the shim.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace durprobe::sqlite_bench {

enum class FileKind { kDb, kJournal, kWal, kOther };
inline constexpr int kFileKindCount = 4;
std::string_view NameOf(FileKind kind);  // "db", "journal", "wal", "other"

// Counts for one file kind. sync_* count xSync calls by the SQLITE_SYNC_* flags SQLite passed.
struct KindCounts {
  std::uint64_t opens = 0;
  std::uint64_t syncs = 0;
  std::uint64_t sync_normal = 0;    // (flags & 0x0F) == SQLITE_SYNC_NORMAL
  std::uint64_t sync_full = 0;      // (flags & 0x0F) == SQLITE_SYNC_FULL
  std::uint64_t sync_dataonly = 0;  // SQLITE_SYNC_DATAONLY bit set
  // Monotonic time inside xSync (with any directory sync it triggers) and inside an xDelete that
  // syncs the directory (counted in delete_ns too).
  std::uint64_t sync_ns = 0;
  // xSync calls after the file grew past its size at the previous sync (or open): the filesystem
  // must persist a new size with the data, as the probes' append pattern does.
  std::uint64_t syncs_grown = 0;
  std::uint64_t writes = 0;
  std::uint64_t write_bytes = 0;
  std::uint64_t reads = 0;
  std::uint64_t read_bytes = 0;
  std::uint64_t truncates = 0;
  std::uint64_t deletes = 0;
  std::uint64_t deletes_dirsync = 0;  // xDelete with syncDir set
  std::uint64_t delete_ns = 0;
  std::uint64_t locks = 0;    // xLock
  std::uint64_t unlocks = 0;  // xUnlock
  std::uint64_t shm_locks = 0;
  std::uint64_t dir_syncs = 0;  // inferred: see counting_vfs.h

  KindCounts& operator+=(const KindCounts& o);
};

struct VfsCounts {
  std::array<KindCounts, kFileKindCount> kinds{};
  const KindCounts& of(FileKind k) const { return kinds[static_cast<int>(k)]; }
  KindCounts& of(FileKind k) { return kinds[static_cast<int>(k)]; }
  std::uint64_t syncs() const;      // xSync calls over all kinds
  std::uint64_t dir_syncs() const;  // inferred directory syncs over all kinds
  std::uint64_t sync_ns() const;
  // What a syscall tracer sees: xSync calls plus the directory syncs inside them.
  std::uint64_t sync_calls() const { return syncs() + dir_syncs(); }
  VfsCounts& operator+=(const VfsCounts& o);
};

// Where a counted call is attributed. The workload moves the phase; the shim only reads it.
enum class Phase { kSetup, kWarmup, kCommit, kCheckpoint, kVerify };
inline constexpr int kPhaseCount = 5;

}  // namespace durprobe::sqlite_bench
