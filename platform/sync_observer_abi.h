// The records the sync observer's BPF program (bpf/sync_observer.bpf.c) and its loader
// (linux_sync_observer.cc) exchange: the same header on both sides of the ring buffer and the
// maps, so a field moved on one side moves on the other. Plain C with the kernel's fixed-width
// types, as the BPF compile has no C++ and no libc.
#pragma once

#include <linux/types.h>

// What a record reports. The first block are syncs (what watch counts); the rest are only
// the program's own bookkeeping of a call in flight, never sent.
enum dp_sync_op {
  DP_OP_FSYNC = 1,
  DP_OP_FDATASYNC = 2,
  DP_OP_SYNC_FILE_RANGE = 3,
  DP_OP_SYNCFS = 4,
  DP_OP_MSYNC = 5,             // msync with MS_SYNC only
  DP_OP_PWRITEV2_SYNC = 6,     // pwritev2 with RWF_DSYNC or RWF_SYNC
  DP_OP_WRITE_OSYNC = 7,       // a write to a descriptor opened O_SYNC or O_DSYNC
  DP_OP_URING_FSYNC = 8,       // io_uring's IORING_OP_FSYNC
  DP_OP_URING_SYNC_RANGE = 9,  // io_uring's IORING_OP_SYNC_FILE_RANGE
  DP_OP_LAST_SYNC = 9,
  DP_OP_WRITE = 20,  // write, pwrite64, writev, pwritev, pwritev2 without a sync flag
  DP_OP_OPENAT = 21,
  DP_OP_MMAP = 22,
};

// One sync, sent when it returns.
struct dp_sync_event {
  __u64 end_ns;             // CLOCK_MONOTONIC at the return
  __u64 latency_ns;         // entry to return
  __u64 bytes_since_sync;   // written to (tgid, fd) since its last sync or open, this call's too
  __u64 writes_since_sync;  // write calls behind bytes_since_sync
  __u64 addr;               // msync: the start of the range; else 0
  __u64 length;             // msync, sync_file_range: the range's length; else 0
  __s64 ret;                // the call's return: 0 or -errno (a write: bytes)
  __u32 tgid;
  __u32 tid;
  __s32 fd;     // -1 for msync
  __u32 op;     // enum dp_sync_op
  __u32 flags;  // sync_file_range, msync, pwritev2 flags; the open flags of an O_SYNC write
  __u32 pad;
  char comm[16];
};

// One open, sent when openat returns a descriptor to an observed process: the name it was given,
// so a descriptor closed before user space reads its sync (SQLite's rollback journal) still has
// its file. Told from a sync record by its size.
#define DP_PATH_MAX 256
struct dp_open_event {
  __u64 end_ns;
  __u32 tgid;
  __s32 fd;
  __s32 dfd;  // openat's directory descriptor (AT_FDCWD: -100)
  __u32 flags;
  char path[DP_PATH_MAX];
};

// One shared file mapping made by an observed process (mmap with a descriptor), so an msync
// names its file even when the mapping is gone before user space reads the sync.
struct dp_map_event {
  __u64 addr;
  __u64 length;
  __u32 tgid;
  __s32 fd;
};

// The filter, set by the loader before the programs are attached (array map "dp_config").
struct dp_config {
  __u32 filter_pids;  // 1: only the processes in "dp_pids"
  __u32 filter_comm;  // 1: only threads whose comm equals comm
  __u32 self_tgid;    // the observer itself, never observed
  __u32 pad;
  char comm[16];
};

// Per-descriptor bookkeeping (hash map "dp_files"): what was written since the last sync.
struct dp_file_key {
  __u32 tgid;
  __s32 fd;
};
struct dp_file_state {
  __u64 bytes;
  __u64 writes;
  __u32 open_flags;  // O_SYNC / O_DSYNC bits it was opened with
  __u32 pad;
};

// A call in flight, by thread id (hash map "dp_calls").
struct dp_call {
  __u64 start_ns;
  __u64 arg;     // flags (pwritev2, sync_file_range, msync, openat) or msync's address
  __u64 length;  // msync and sync_file_range's length
  __s32 fd;
  __u32 op;
};

// A legacy map definition ("maps" section), read by the loader (platform/bpf_object.h).
struct dp_map_def {
  __u32 type;
  __u32 key_size;
  __u32 value_size;
  __u32 max_entries;
  __u32 flags;
};
