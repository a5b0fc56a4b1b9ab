// ParseBpfObject on the sync observer's own object as the build compiled it: every program on
// its tracepoint, each map reference on an ld_imm64, the maps as the program defines them; and
// input that is not a BPF object refused with a message.
#include "platform/bpf_object.h"

#include <gtest/gtest.h>
#include <linux/bpf.h>

#include <set>

#include "durprobe_config.h"
#include "platform/sync_observer_bpf_object.h"

namespace durprobe::platform {
namespace {

TEST(BpfObjectTest, TheObserversObjectHasItsProgramsMapsAndLicense) {
#if HAVE_BPF_OBSERVER
  Result<BpfObject> object = ParseBpfObject(SyncObserverBpfObject());
  ASSERT_TRUE(object.ok()) << object.status().message();
  EXPECT_EQ(object->license, "Dual BSD/GPL");
  std::set<std::string> events;
  for (const BpfProgramSpec& p : object->programs) {
    events.insert(p.category + "/" + p.event);
    EXPECT_FALSE(p.name.empty());
    EXPECT_FALSE(p.map_references.empty()) << p.name;
    for (const BpfMapReference& ref : p.map_references) {
      ASSERT_LT(ref.instruction, p.instructions.size());
      ASSERT_LT(ref.map, object->maps.size());
      // The low byte of an instruction is its opcode: BPF_LD | BPF_IMM | BPF_DW, a 64-bit load.
      EXPECT_EQ(p.instructions[ref.instruction] & 0xff, BPF_LD | BPF_IMM | BPF_DW) << p.name;
    }
  }
  for (const char* e : {"syscalls/sys_enter_fsync", "syscalls/sys_exit_fdatasync",
                        "syscalls/sys_enter_sync_file_range", "syscalls/sys_exit_msync",
                        "syscalls/sys_enter_pwritev2", "syscalls/sys_exit_openat",
                        "io_uring/io_uring_submit_req", "io_uring/io_uring_complete"}) {
    EXPECT_TRUE(events.contains(e)) << e;
  }
  bool ring = false;
  for (const BpfMapSpec& m : object->maps) {
    if (m.name == "dp_events") ring = m.type == BPF_MAP_TYPE_RINGBUF && m.max_entries == 4 << 20;
  }
  EXPECT_TRUE(ring);
#else
  GTEST_SKIP() << "this build has no BPF observer (no clang)";
#endif
}

TEST(BpfObjectTest, WhatIsNotABpfObjectIsRefused) {
  EXPECT_FALSE(ParseBpfObject("").ok());
  EXPECT_FALSE(ParseBpfObject("\x7f"
                              "ELF and then nothing")
                   .ok());
#if HAVE_BPF_OBSERVER
  std::string_view whole = SyncObserverBpfObject();
  Result<BpfObject> cut = ParseBpfObject(whole.substr(0, whole.size() / 2));
  EXPECT_FALSE(cut.ok());
  EXPECT_NE(cut.status().message().find("the BPF object"), std::string::npos);
#endif
}

}  // namespace
}  // namespace durprobe::platform
