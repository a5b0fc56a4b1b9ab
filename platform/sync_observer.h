// The live observer behind `durprobe watch`: every durability system call the observed processes
// make (fsync, fdatasync, sync_file_range, syncfs, msync(MS_SYNC), pwritev2 with RWF_DSYNC or
// RWF_SYNC, a write to a descriptor opened O_SYNC or O_DSYNC, io_uring's fsync and
// sync_file_range), each with its latency and the bytes written to its descriptor since that
// descriptor's last sync, observed by a BPF program on the kernel's tracepoints (Linux, root).
// What the program cannot see is said in docs/watch.md: writes through a shared mapping never
// synced with msync, and the kernel's own writeback.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "platform/status.h"

namespace durprobe::platform {

enum class ObservedCall {
  kFsync,
  kFdatasync,
  kSyncFileRange,
  kSyncfs,
  kMsync,
  kPwritev2Sync,
  kOsyncWrite,
  kUringFsync,
  kUringSyncFileRange,
  kLastObservedCall = kUringSyncFileRange,
};

// "fsync", "fdatasync", "sync_file_range", "syncfs", "msync", "pwritev2_sync", "osync_write",
// "io_uring_fsync", "io_uring_sync_file_range".
std::string_view ObservedCallName(ObservedCall call);

struct ObservedSync {
  std::uint64_t end_ns = 0;      // CLOCK_MONOTONIC
  std::uint64_t latency_ns = 0;  // the call's entry to its return (io_uring: submit to complete)
  std::uint64_t bytes_since_sync = 0;   // written to the descriptor since its last sync or open
  std::uint64_t writes_since_sync = 0;  // the write calls behind them
  std::int64_t result = 0;              // 0 or -errno (an O_SYNC write: the bytes written)
  std::uint32_t pid = 0;                // the process (thread group)
  std::uint32_t tid = 0;
  int fd = -1;  // -1 for msync
  ObservedCall call = ObservedCall::kFsync;
  std::uint32_t flags = 0;    // the call's flags (sync_file_range, pwritev2, msync, open flags)
  std::uint64_t address = 0;  // msync's range
  std::uint64_t length = 0;
  std::string comm;
  // The file: its path as the process named it when watch saw the open, else as /proc read it
  // back at the sync; "" when neither could (a descriptor closed before it was read).
  std::string path;
};

// Writes to a descriptor that no sync followed, as the window ends.
struct UnsyncedWrites {
  std::uint32_t pid = 0;
  int fd = -1;
  std::uint64_t bytes = 0;
  std::uint64_t writes = 0;
  std::string path;  // as for ObservedSync; a pipe or socket reads back as "pipe:[N]"
};

struct SyncObserverFilter {
  std::vector<int> pids;  // empty: every process
  std::string comm;       // empty: any; else the thread's comm (15 bytes at most)
};

class SyncObserver {
 public:
  virtual ~SyncObserver() = default;
  // Waits up to timeout_ms for syncs and appends them, in the order they returned, to out with
  // their files resolved. A signal ends the wait early.
  virtual Status Poll(int timeout_ms, std::vector<ObservedSync>* out) = 0;
  // Records the kernel could not send for want of room in the ring buffer, so far.
  virtual std::uint64_t lost() const = 0;
  // Every descriptor written since its last sync (or its open) and not synced since.
  virtual std::vector<UnsyncedWrites> Unsynced() = 0;
  // The calls this kernel lets the program see no tracepoint for ("io_uring/io_uring_complete").
  virtual std::vector<std::string> unobserved() const = 0;
};

// Loads and attaches the program for filter. Unsupported, in one sentence, when BPF cannot be
// used here (not root, lockdown, no tracefs, another OS); an Error with the verifier's log when
// the kernel refuses the program.
Result<std::unique_ptr<SyncObserver>> OpenSyncObserver(const SyncObserverFilter& filter);

}  // namespace durprobe::platform
