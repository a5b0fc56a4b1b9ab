#include "sqlite_bench/vfs_counts.h"

namespace durprobe::sqlite_bench {

std::string_view NameOf(FileKind kind) {
  switch (kind) {
    case FileKind::kDb:
      return "db";
    case FileKind::kJournal:
      return "journal";
    case FileKind::kWal:
      return "wal";
    case FileKind::kOther:
      return "other";
  }
  return "other";
}

KindCounts& KindCounts::operator+=(const KindCounts& o) {
  opens += o.opens;
  syncs += o.syncs;
  sync_normal += o.sync_normal;
  sync_full += o.sync_full;
  sync_dataonly += o.sync_dataonly;
  sync_ns += o.sync_ns;
  syncs_grown += o.syncs_grown;
  writes += o.writes;
  write_bytes += o.write_bytes;
  reads += o.reads;
  read_bytes += o.read_bytes;
  truncates += o.truncates;
  deletes += o.deletes;
  deletes_dirsync += o.deletes_dirsync;
  delete_ns += o.delete_ns;
  locks += o.locks;
  unlocks += o.unlocks;
  shm_locks += o.shm_locks;
  dir_syncs += o.dir_syncs;
  return *this;
}

std::uint64_t VfsCounts::syncs() const {
  std::uint64_t n = 0;
  for (const KindCounts& k : kinds) n += k.syncs;
  return n;
}

std::uint64_t VfsCounts::dir_syncs() const {
  std::uint64_t n = 0;
  for (const KindCounts& k : kinds) n += k.dir_syncs;
  return n;
}

std::uint64_t VfsCounts::sync_ns() const {
  std::uint64_t n = 0;
  for (const KindCounts& k : kinds) n += k.sync_ns;
  return n;
}

VfsCounts& VfsCounts::operator+=(const VfsCounts& o) {
  for (int i = 0; i < kFileKindCount; ++i) kinds[i] += o.kinds[i];
  return *this;
}

}  // namespace durprobe::sqlite_bench
