// What a probe measures: a sync primitive, an access pattern and a write size, and the names
// they carry in the command line and the JSON report.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "platform/status.h"

namespace durprobe::probes {

// In the order of primitive_ops.cc's rows, which is the order a default run measures them in.
enum class Primitive {
  kNone,  // write without sync: the page-cache baseline
  kFsync,
  kFdatasync,
  kOdsync,         // write on an O_DSYNC descriptor
  kOsync,          // write on an O_SYNC descriptor
  kSyncFileRange,  // Linux; writes back the range but persists no metadata: not durability
  kFullFsync,      // macOS F_FULLFSYNC
  kBarrierFsync,   // macOS F_BARRIERFSYNC
  kDirFsync,       // fsync of the directory after a create or rename
  kOdirectDsync,   // write on an O_DIRECT|O_DSYNC descriptor, aligned buffer
  kRwfDsync,       // pwritev2(RWF_DSYNC): a FUA write where the device has FUA, else write + flush
  kIoUringFsync,   // io_uring: a write linked to an IORING_OP_FSYNC, one submission
  kIoUringFdatasync,  // the same with IORING_FSYNC_DATASYNC
  kOdirectSync,       // write on an O_DIRECT|O_SYNC descriptor: pg_test_fsync's open_sync
};
// The last enumerator: primitive_ops.cc's static_assert counts the rows up to it, so a primitive
// added after it must move this too, and one added before it fails without its row.
inline constexpr Primitive kLastPrimitive = Primitive::kOdirectSync;

enum class Pattern {
  kOverwrite,       // rewrite a preallocated, already synced file in place (sequentially)
  kAppend,          // the file grows: a data sync must also persist the new size
  kPreallocated,    // sequential writes into fallocated, never written blocks (etcd's WAL
                    // segments, fio's laid-out files): each sync records blocks now hold data
  kCreate,          // dir_fsync: create a file, then fsync its directory
  kRename,          // dir_fsync: rename a file, then fsync its directory
  kWriteSyncClose,  // pg_test_fsync: open, write, sync, close
  kWriteCloseSync,  // pg_test_fsync: open, write, close, reopen, sync (another descriptor)
};

std::string_view NameOf(Primitive p);
std::string_view NameOf(Pattern p);
// Name -> value maps, lower-case, for the command line's CheckedTransformer and JSON parsing.
const std::map<std::string, Primitive>& PrimitiveNames();
const std::map<std::string, Pattern>& PatternNames();

struct ProbeSpec {
  Primitive primitive = Primitive::kFdatasync;
  Pattern pattern = Pattern::kOverwrite;
  std::uint64_t write_size = 4096;
  // Consecutive writes of write_size in one timed operation, then the primitive's sync once
  // (pg_test_fsync's "two writes per sync"); with odsync/osync each write syncs itself, as in
  // pg_test_fsync. 1 for every probe but the postgres-wal comparisons.
  std::uint32_t writes_per_op = 1;
  // > 0: the timed operations are paced, one every 1/paced_per_sec s, the wait between them
  // untimed, as a database issues its syncs at its own commit rate (the etcd preset: 150 a
  // second, as under `etcdctl check perf`). A device idle between syncs can answer each one
  // several times slower than back to back. The wait spins on the CPU rather than sleeps, as a
  // server's threads stay busy between its syncs: an idle virtual CPU wakes late, and that lands
  // in the next sync. 0: back to back, every probe but that one.
  std::uint32_t paced_per_sec = 0;
  // > 0: before each timed operation the loop spends work_us on the CPU, as a database does its
  // own work between one commit's sync and the next (the postgres-wal preset: one pgbench -N
  // client's transaction). The work is in no operation's latency but is in the elapsed time, so
  // ops/s is the commit rate of one client whose transactions take that long besides the sync.
  // Closed loop, where pacing is open: a probe is paced or does work, not both.
  std::uint32_t work_us = 0;
  // > 0: the work is that many round trips to a partner thread (Platform::StartPartner), each
  // side spinning its share of what is left of work_us a message (so the wake-ups count in it),
  // as a client and its server take turns while the other sleeps (pgbench -N's transaction: 4).
  // 0: one spin.
  std::uint32_t work_round_trips = 0;

  bool operator==(const ProbeSpec&) const = default;
};

inline constexpr std::uint32_t kMaxWritesPerOp = 64;
inline constexpr std::uint32_t kMaxPacedPerSec = 100'000;
inline constexpr std::uint32_t kMaxWorkUs = 1'000'000;
inline constexpr std::uint32_t kMaxWorkRoundTrips = 64;

// Bytes one operation writes: write_size x writes_per_op.
inline std::uint64_t BytesPerOp(const ProbeSpec& spec) {
  return spec.write_size * spec.writes_per_op;
}

// Whether the primitive and pattern go together (dir_fsync takes create/rename; the
// cross-descriptor patterns take fsync or fdatasync; the rest take overwrite/append), and
// writes_per_op is 1..kMaxWritesPerOp (above 1 only with overwrite, append or preallocated).
// A write size or writes_per_op outside its range is Status::OutOfRange (out_of_range() true),
// checked after the pairing, so a pattern that does not apply is never reported as one.
Status Validate(const ProbeSpec& spec);

// A caveat printed with the result when the primitive does not mean what its name suggests.
std::string_view CaveatOf(Primitive p);

}  // namespace durprobe::probes
