// A BPF program the kernel's verifier must refuse: it reads a map value without checking that
// the lookup found one. tests/integration/watch_refusal_test.cc loads it to see the verifier's
// log reach the user.
#include <linux/bpf.h>

#include "../../../platform/sync_observer_abi.h"

#define SEC(name) __attribute__((section(name), used))

static void* (*map_lookup)(void* map, const void* key) = (void*)BPF_FUNC_map_lookup_elem;

struct dp_map_def dp_refused SEC("maps") = {BPF_MAP_TYPE_HASH, 4, 8, 16, 0};

char dp_license[] SEC("license") = "Dual BSD/GPL";

SEC("tracepoint/syscalls/sys_enter_fsync") int refused(void* ctx) {
  __u32 key = 1;
  __u64* value = map_lookup(&dp_refused, &key);
  return (int)*value;  // no null check: "invalid mem access 'map_value_or_null'"
}
