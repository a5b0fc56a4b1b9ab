// The sync observer's BPF program: every durability system call of the observed processes, with
// its latency (entry and return paired by thread id) and what was written to its descriptor since
// the descriptor's last sync (counted here, in the kernel, so the writes themselves send nothing).
// Only the syncs reach user space, one record each through the ring buffer "dp_events": the file
// and the order of the syncs are the answer, so no histogram would do. Tracepoints with the fixed
// layouts of /sys/kernel/tracing/events/{syscalls,io_uring}/*/format, so no kernel BTF is needed.
// Filtered first (the observer, the pids, the comm) so other processes pay one map lookup.
#include <linux/bpf.h>

#include "../sync_observer_abi.h"

#define SEC(name) __attribute__((section(name), used))
#define INLINE static inline __attribute__((always_inline))

// The helpers, by their stable numbers in linux/bpf.h.
static void* (*map_lookup)(void* map, const void* key) = (void*)BPF_FUNC_map_lookup_elem;
static long (*map_update)(void* map, const void* key, const void* value,
                          __u64 flags) = (void*)BPF_FUNC_map_update_elem;
static long (*map_delete)(void* map, const void* key) = (void*)BPF_FUNC_map_delete_elem;
static __u64 (*ktime_ns)(void) = (void*)BPF_FUNC_ktime_get_ns;
static __u64 (*current_pid_tgid)(void) = (void*)BPF_FUNC_get_current_pid_tgid;
static long (*current_comm)(void* buf, __u32 size) = (void*)BPF_FUNC_get_current_comm;
static long (*probe_read_user_str)(void* dst, __u32 size,
                                   const void* src) = (void*)BPF_FUNC_probe_read_user_str;
static long (*ringbuf_output)(void* ringbuf, void* data, __u64 size,
                              __u64 flags) = (void*)BPF_FUNC_ringbuf_output;

struct dp_map_def dp_config SEC("maps") = {BPF_MAP_TYPE_ARRAY, 4, sizeof(struct dp_config), 1, 0};
struct dp_map_def dp_pids SEC("maps") = {BPF_MAP_TYPE_HASH, 4, 1, 1024, 0};
struct dp_map_def dp_calls SEC("maps") = {BPF_MAP_TYPE_LRU_HASH, 4, sizeof(struct dp_call),
                                          16384, 0};
struct dp_map_def dp_files SEC("maps") = {BPF_MAP_TYPE_LRU_HASH, sizeof(struct dp_file_key),
                                          sizeof(struct dp_file_state), 65536, 0};
// io_uring requests in flight, by the request's kernel address.
struct dp_map_def dp_ring_calls SEC("maps") = {BPF_MAP_TYPE_LRU_HASH, 8, sizeof(struct dp_call) + 8,
                                               16384, 0};
// [0]: records the ring buffer had no room for.
struct dp_map_def dp_lost SEC("maps") = {BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0};
struct dp_map_def dp_events SEC("maps") = {BPF_MAP_TYPE_RINGBUF, 0, 0, 4 << 20, 0};

char dp_license[] SEC("license") = "Dual BSD/GPL";

// The syscall tracepoints' records: the common header, the syscall number, then each argument
// (or the return) in 8 bytes.
struct sys_enter {
  __u64 common;
  __s64 nr;
  __u64 args[6];
};
struct sys_exit {
  __u64 common;
  __s64 nr;
  __s64 ret;
};

#define DP_O_DSYNC 010000
#define DP_O_SYNC 04010000
#define DP_RWF_DSYNC 2
#define DP_RWF_SYNC 4
#define DP_MS_SYNC 4

struct ring_call {
  struct dp_call call;
  __u32 tgid;
  __u32 tid;
};

INLINE int observed(__u64 pid_tgid) {
  __u32 zero = 0;
  struct dp_config* config = map_lookup(&dp_config, &zero);
  if (!config) return 0;
  __u32 tgid = pid_tgid >> 32;
  if (tgid == config->self_tgid) return 0;
  if (config->filter_pids && !map_lookup(&dp_pids, &tgid)) return 0;
  if (config->filter_comm) {
    char comm[16] = {};
    current_comm(comm, sizeof(comm));
    for (int i = 0; i < 16; i++) {
      if (comm[i] != config->comm[i]) return 0;
      if (comm[i] == 0) break;
    }
  }
  return 1;
}

INLINE int enter(__u32 op, __s32 fd, __u64 arg, __u64 length) {
  __u64 pid_tgid = current_pid_tgid();
  if (!observed(pid_tgid)) return 0;
  __u32 tid = (__u32)pid_tgid;
  struct dp_call call = {ktime_ns(), arg, length, fd, op};
  map_update(&dp_calls, &tid, &call, BPF_ANY);
  return 0;
}

INLINE void send_record(void* record, __u64 size) {
  if (ringbuf_output(&dp_events, record, size, 0) != 0) {
    __u32 zero = 0;
    __u64* lost = map_lookup(&dp_lost, &zero);
    if (lost) __sync_fetch_and_add(lost, 1);
  }
}

INLINE void send(struct dp_sync_event* event) { send_record(event, sizeof(*event)); }

// Fills the event's common fields and takes the descriptor's written bytes, resetting them.
INLINE void take_file(struct dp_sync_event* event, __u32 tgid, __s32 fd) {
  struct dp_file_key key = {tgid, fd};
  struct dp_file_state* state = map_lookup(&dp_files, &key);
  if (!state) return;
  event->bytes_since_sync += state->bytes;
  event->writes_since_sync += state->writes;
  state->bytes = 0;
  state->writes = 0;
}

INLINE int leave(__s64 ret) {
  __u64 pid_tgid = current_pid_tgid();
  __u32 tid = (__u32)pid_tgid;
  struct dp_call* found = map_lookup(&dp_calls, &tid);
  if (!found) return 0;
  struct dp_call call = *found;
  map_delete(&dp_calls, &tid);
  __u32 tgid = pid_tgid >> 32;
  if (call.op == DP_OP_OPENAT) {
    if (ret < 0) return 0;
    struct dp_file_key key = {tgid, (__s32)ret};
    struct dp_file_state state = {0, 0, (__u32)(call.arg & DP_O_SYNC), 0};
    map_update(&dp_files, &key, &state, BPF_ANY);
    struct dp_open_event opened = {};
    opened.end_ns = ktime_ns();
    opened.tgid = tgid;
    opened.fd = (__s32)ret;
    opened.dfd = call.fd;
    opened.flags = (__u32)call.arg;
    probe_read_user_str(opened.path, sizeof(opened.path), (const void*)call.length);
    send_record(&opened, sizeof(opened));
    return 0;
  }
  if (call.op == DP_OP_MMAP) {
    if (ret < 0 && ret > -4096) return 0;
    struct dp_map_event mapped = {(__u64)ret, call.length, tgid, call.fd};
    send_record(&mapped, sizeof(mapped));
    return 0;
  }
  __u64 now = ktime_ns();
  struct dp_sync_event event = {};
  event.end_ns = now;
  event.latency_ns = now - call.start_ns;
  event.ret = ret;
  event.tgid = tgid;
  event.tid = tid;
  event.fd = call.fd;
  event.op = call.op;
  event.flags = (__u32)call.arg;
  event.length = call.length;
  if (call.op == DP_OP_MSYNC) {
    event.addr = call.arg;
    event.flags = DP_MS_SYNC;
  }
  if (call.op == DP_OP_WRITE) {
    if (ret <= 0) return 0;
    struct dp_file_key key = {tgid, call.fd};
    struct dp_file_state* state = map_lookup(&dp_files, &key);
    int sync_write = (call.arg & (DP_RWF_DSYNC | DP_RWF_SYNC)) != 0;
    if (!state) {
      struct dp_file_state fresh = {(__u64)ret, 1, 0, 0};
      if (!sync_write) {
        map_update(&dp_files, &key, &fresh, BPF_ANY);
        return 0;
      }
    } else {
      state->bytes += (__u64)ret;
      state->writes += 1;
      if (state->open_flags) {
        event.op = DP_OP_WRITE_OSYNC;
        event.flags = state->open_flags;
        sync_write = 1;
      } else if (!sync_write) {
        return 0;
      }
    }
    if (event.op == DP_OP_WRITE) event.op = DP_OP_PWRITEV2_SYNC;
    if (!state) {
      event.bytes_since_sync = (__u64)ret;
      event.writes_since_sync = 1;
    }
  }
  current_comm(event.comm, sizeof(event.comm));
  take_file(&event, tgid, call.fd);
  send(&event);
  return 0;
}

#define ENTER_FD(name, op)                                                  \
  SEC("tracepoint/syscalls/sys_enter_" #name) int enter_##name(struct sys_enter* ctx) { \
    return enter(op, (__s32)ctx->args[0], 0, 0);                            \
  }                                                                         \
  SEC("tracepoint/syscalls/sys_exit_" #name) int exit_##name(struct sys_exit* ctx) {    \
    return leave(ctx->ret);                                                 \
  }

ENTER_FD(fsync, DP_OP_FSYNC)
ENTER_FD(fdatasync, DP_OP_FDATASYNC)
ENTER_FD(syncfs, DP_OP_SYNCFS)
ENTER_FD(write, DP_OP_WRITE)
ENTER_FD(pwrite64, DP_OP_WRITE)
ENTER_FD(writev, DP_OP_WRITE)
ENTER_FD(pwritev, DP_OP_WRITE)

SEC("tracepoint/syscalls/sys_enter_pwritev2") int enter_pwritev2(struct sys_enter* ctx) {
  return enter(DP_OP_WRITE, (__s32)ctx->args[0], ctx->args[5], 0);
}
SEC("tracepoint/syscalls/sys_exit_pwritev2") int exit_pwritev2(struct sys_exit* ctx) {
  return leave(ctx->ret);
}

// sync_file_range(fd, offset, nbytes, flags)
SEC("tracepoint/syscalls/sys_enter_sync_file_range") int enter_sfr(struct sys_enter* ctx) {
  return enter(DP_OP_SYNC_FILE_RANGE, (__s32)ctx->args[0], ctx->args[3], ctx->args[2]);
}
SEC("tracepoint/syscalls/sys_exit_sync_file_range") int exit_sfr(struct sys_exit* ctx) {
  return leave(ctx->ret);
}

// msync(start, len, flags): only MS_SYNC waits for the pages to be written.
SEC("tracepoint/syscalls/sys_enter_msync") int enter_msync(struct sys_enter* ctx) {
  if (!(ctx->args[2] & DP_MS_SYNC)) return 0;
  return enter(DP_OP_MSYNC, -1, ctx->args[0], ctx->args[1]);
}
SEC("tracepoint/syscalls/sys_exit_msync") int exit_msync(struct sys_exit* ctx) {
  return leave(ctx->ret);
}

// mmap(addr, len, prot, flags, fd, off): a shared mapping of a file, for msync's file.
#define DP_MAP_SHARED 1
SEC("tracepoint/syscalls/sys_enter_mmap") int enter_mmap(struct sys_enter* ctx) {
  if ((__s32)ctx->args[4] < 0 || !(ctx->args[3] & DP_MAP_SHARED)) return 0;
  return enter(DP_OP_MMAP, (__s32)ctx->args[4], 0, ctx->args[1]);
}
SEC("tracepoint/syscalls/sys_exit_mmap") int exit_mmap(struct sys_exit* ctx) {
  return leave(ctx->ret);
}

// openat(dfd, filename, flags, mode): the descriptor's O_SYNC/O_DSYNC, and a fresh count.
SEC("tracepoint/syscalls/sys_enter_openat") int enter_openat(struct sys_enter* ctx) {
  return enter(DP_OP_OPENAT, (__s32)ctx->args[0], ctx->args[2], ctx->args[1]);
}
SEC("tracepoint/syscalls/sys_exit_openat") int exit_openat(struct sys_exit* ctx) {
  return leave(ctx->ret);
}

// io_uring: submit_req names the operation, file_get its descriptor, complete its end (which
// may run on another thread, so it is keyed by the request, not the thread).
struct uring_submit {
  __u64 common;
  __u64 ctx;
  __u64 req;
  __u64 user_data;
  __u8 opcode;
};
struct uring_file_get {
  __u64 common;
  __u64 ctx;
  __u64 req;
  __u64 user_data;
  __s32 fd;
};
struct uring_complete {
  __u64 common;
  __u64 ctx;
  __u64 req;
  __u64 user_data;
  __s32 res;
};

#define DP_IORING_OP_FSYNC 3
#define DP_IORING_OP_SYNC_FILE_RANGE 8

SEC("tracepoint/io_uring/io_uring_submit_req") int uring_submit(struct uring_submit* ctx) {
  __u8 opcode = ctx->opcode;
  if (opcode != DP_IORING_OP_FSYNC && opcode != DP_IORING_OP_SYNC_FILE_RANGE) return 0;
  __u64 pid_tgid = current_pid_tgid();
  if (!observed(pid_tgid)) return 0;
  struct ring_call call = {};
  call.call.start_ns = ktime_ns();
  call.call.fd = -1;
  call.call.op = opcode == DP_IORING_OP_FSYNC ? DP_OP_URING_FSYNC : DP_OP_URING_SYNC_RANGE;
  call.tgid = pid_tgid >> 32;
  call.tid = (__u32)pid_tgid;
  __u64 req = ctx->req;
  map_update(&dp_ring_calls, &req, &call, BPF_ANY);
  return 0;
}

SEC("tracepoint/io_uring/io_uring_file_get") int uring_file_get(struct uring_file_get* ctx) {
  __u64 req = ctx->req;
  struct ring_call* call = map_lookup(&dp_ring_calls, &req);
  if (call) call->call.fd = ctx->fd;
  return 0;
}

SEC("tracepoint/io_uring/io_uring_complete") int uring_complete(struct uring_complete* ctx) {
  __u64 req = ctx->req;
  struct ring_call* found = map_lookup(&dp_ring_calls, &req);
  if (!found) return 0;
  struct ring_call call = *found;
  map_delete(&dp_ring_calls, &req);
  __u64 now = ktime_ns();
  struct dp_sync_event event = {};
  event.end_ns = now;
  event.latency_ns = now - call.call.start_ns;
  event.ret = ctx->res;
  event.tgid = call.tgid;
  event.tid = call.tid;
  event.fd = call.call.fd;
  event.op = call.call.op;
  take_file(&event, call.tgid, call.call.fd);
  send(&event);
  return 0;
}
